"""The class load benchmark's pieces (benchmarks/bench_class.py): the front end's protocol
(:mod:`.protocol`), processes and their cost (:mod:`.procs`), one simulated student
(:mod:`.student`)."""
