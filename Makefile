# genviz: the two commands a newcomer needs are `make lab` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.genviz-installed
PORT   ?= 8888
# BLAS: one thread per process, for every target (JupyterLab's kernels, Voila, the tests, the
# site build and the trial hub inherit it; set the variable yourself to choose another number).
# numpy's and scipy's wheels each bring their own OpenBLAS, and their thread pools spin against
# each other: on 2 cores notebook 10's learning curves (90 logistic fits on 300 features) took
# 112 s with the default threads and 3.6 s with one, with identical results
# (benchmarks/blas_threads.md; scipy/scipy#15050, OpenMathLib/OpenBLAS#731). Our matrices are
# small (d <= a few thousand), so a single thread loses nothing there, and several kernels or
# test workers share the cores anyway.
export OPENBLAS_NUM_THREADS ?= 1
export OMP_NUM_THREADS ?= 1
export MKL_NUM_THREADS ?= 1
# Jupyter refuses to run as root (containers, CI) unless told so; ordinary users never need it.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: lab test test-fast bench clean help test-browser present assignments grade

help:
	@echo "make lab    - set up .venv and start JupyterLab on notebooks/ (127.0.0.1, token auth)"
	@echo "make test   - set up .venv and run every test (unit, oracle, doctest, widget, nbval), in parallel"
	@echo "make test-fast - the inner loop: every test not marked slow (no notebook runs, sandboxes, servers)"
	@echo "make bench  - measure explorer update latency against the naive approach"
	@echo "make states - build the explorers' precomputed states once (into the venv)"
	@echo "make bench-class - a class on the trial hub: N students log in, run a notebook, drag (N=\"1 10 20 40\")"
	@echo "make test-browser - real-browser tests (JupyterLab + Voila in headless Chromium)"
	@echo "make present - lecture mode: Voila on 127.0.0.1 (code hidden, large fonts)"
	@echo "make site   - build the course website into build/site/ (open build/site/index.html)"
	@echo "make test-site - browser tests of the website and the accessibility audit"
	@echo "make assignments ROSTER=FILE - graded assignments (01-09): each student's own variant -> build/course/release/<student>/"
	@echo "make grade COURSE=DIR - grade DIR/submitted/<student>/<assignment>/ in a sandbox -> DIR/grades.csv, report, feedback"
	@echo "make solution STUDENT=ID ASSIGNMENT=A - that student's solved variant -> build/course/solutions/ID/A/"
	@echo "make hub    - trial JupyterHub for a class on 127.0.0.1:\$$HUB_PORT (8000): any name logs in"
	@echo "make lecture-bundle - the lecture page's questions and explorers for the phones (into the venv, where the hub reads them)"
	@echo "make bench-votes - the room votes: 30/100/300 students voting within 10 s -> benchmarks/votes.md"

# (Re)install whenever pyproject.toml changes. genviz is installed editable.
$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[lab,test]"
	@touch $(STAMP)

# One start-up line in the venv's site-packages: jsonschema no longer compiles ~35 IRI parsers
# (about 1 CPU-s) in every process that imports nbformat -- each Jupyter server, nbconvert run,
# merge driver and hub (etc/python/README.md; tests/test_environment.py).
IRI_PTH := $(VENV)/.genviz-skip-iri-parsers
$(IRI_PTH): etc/python/genviz-skip-iri-parsers.pth $(STAMP)
	cp $< "$$($(PY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/"
	@touch $@

# JupyterLab defaults shipped with the project (no news pop-up, no update check), installed as
# a namespaced overrides.d file in the venv's app settings (a user's own overrides.json wins).
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.d/genviz.json
$(LAB_OVERRIDES): share/jupyter/lab/settings/overrides.d/genviz.json $(STAMP)
	@mkdir -p $(dir $@)
	cp $< $@

# The project's Jupyter data directory comes first on JUPYTER_PATH for `make lab` and `make
# present`: the genviz-a11y front-end extension (share/jupyter/labextensions/genviz-a11y:
# accessible names for slider handles, readouts as live regions) and the lecture template are
# used from the work tree, never copied, so they cannot go stale.
# Likewise its Jupyter config directory (etc/jupyter: TCP_NODELAY on the server's websockets,
# see etc/jupyter/genviz_websockets.py) comes first on JUPYTER_CONFIG_PATH.
PROJECT_JUPYTER_PATH := JUPYTER_PATH=$(CURDIR)/share/jupyter$(if $(JUPYTER_PATH),:$(JUPYTER_PATH),) \
	JUPYTER_CONFIG_PATH=$(CURDIR)/etc/jupyter$(if $(JUPYTER_CONFIG_PATH),:$(JUPYTER_CONFIG_PATH),)

lab: $(STAMP) $(IRI_PTH) $(LAB_OVERRIDES)
	$(PROJECT_JUPYTER_PATH) $(VENV)/bin/jupyter lab --no-browser --ip=127.0.0.1 --port=$(PORT) $(ALLOW_ROOT) \
		--ServerApp.root_dir=notebooks

# The same with nbgrader's tools (Formgrader, Create Assignment), which `make lab` turns off as
# every student server does (etc/jupyter: genviz_students.json, labconfig; deploy/grader_tools.py)
.PHONY: lab-grader
lab-grader: $(STAMP) $(IRI_PTH) $(LAB_OVERRIDES)
	JUPYTER_PATH=$(CURDIR)/share/jupyter JUPYTER_CONFIG_PATH=$(CURDIR)/deploy/singleuser/grader/etc/jupyter:$(CURDIR)/etc/jupyter \
		$(VENV)/bin/jupyter lab --no-browser --ip=127.0.0.1 --port=$(PORT) $(ALLOW_ROOT)

# Matplotlib runs headless (Agg) in the test process; notebooks select ipympl themselves.
# Tests run in parallel (pytest-xdist), one worker per core (TEST_JOBS=N to choose; 0: none).
# `--dist loadfile` keeps each file on one worker: a notebook's nbval cells share one kernel
# (conftest.py refuses a mode that would split them) and module fixtures are built once.
# `make test-fast`: the inner loop (< 1 min), every test but the slow ones: notebooks executed,
# grading sandboxes, servers (marked by hand) and the tests measured slow in that loop's own run
# (tests/slow_tests.json, scripts/durations.py --write-slow) -- `make test` runs them all.
# `make test` runs one worker more than there are cores: about a tenth of its test time waits
# (servers starting, sandboxes' time limits, hub restarts), which the extra worker fills -- on
# 2 cores 8:25 against 9:15 with two workers, the same 5,333 tests passing. `make test-fast`
# never waits, so one worker a core. TEST_JOBS=N sets both. (nproc counts OMP_NUM_THREADS,
# which this Makefile exports as 1: CORES asks without it.)
# configurable-http-proxy (JupyterHub's proxy, a Node.js program) for the trial hub and the tests
# that start one: from PATH, else npm installs it into build/node, where deploy/run_hub.py
# find_proxy looks. Without npm those tests skip and say so; without this line a fresh machine's
# `make test` skipped or failed every hub test (7 errors on 2026-12-01, CHP not on PATH).
ENSURE_PROXY = @command -v configurable-http-proxy >/dev/null 2>&1 \
	|| test -x build/node/node_modules/.bin/configurable-http-proxy \
	|| { command -v npm >/dev/null 2>&1 && npm install --silent --prefix build/node configurable-http-proxy; } || true
TEST_JOBS ?= auto
CORES      := $(shell env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc 2>/dev/null || echo 1)
SUITE_JOBS := $(if $(filter auto,$(TEST_JOBS)),$(shell echo $$(( $(CORES) + 1 ))),$(TEST_JOBS))
PARALLEL  := -n $(TEST_JOBS) --dist loadfile --no-loadscope-reorder
SUITE_PARALLEL := -n $(SUITE_JOBS) --dist loadfile --no-loadscope-reorder
# nbval waits 60 s for a kernel to start by default; on 2 busy cores (three workers, sandboxes,
# hubs) one start in 89 once took longer, and the notebook's cells all failed: 180 s.
NBVAL_OPTS := --nbval-kernel-startup-timeout=180
# The tests write bytecode even where the machine says not to (PYTHONDONTWRITEBYTECODE=1 on
# these VMs and in many CI images): without it every worker compiles and assertion-rewrites
# ~290 test modules again (about 10 CPU-s each) and every kernel, sandbox and hub compiles
# genviz again. make test-fast: 56 s -> 52 s warm; __pycache__/ is ignored by git.
TEST_ENV := PYTHONDONTWRITEBYTECODE= MPLBACKEND=Agg
test: $(STAMP) $(IRI_PTH)
	$(ENSURE_PROXY)
	$(TEST_ENV) $(PY) -m pytest $(SUITE_PARALLEL) --durations=25 --doctest-modules --nbval-lax $(NBVAL_OPTS) genviz tests notebooks

.PHONY: test-fast
test-fast: $(STAMP) $(IRI_PTH)
	$(TEST_ENV) $(PY) -m pytest $(PARALLEL) -m "not slow" --doctest-modules genviz tests

bench: $(STAMP) $(IRI_PTH)
	MPLBACKEND=Agg $(PY) benchmarks/run.py

# The explorers' precomputed states (genviz.widgets.states): every notebook executed once, each
# explorer's grid stored in $(VENV)/share/genviz/states, where the venv's kernels look first
# (postBuild does the same for Binder, TLJH and the Z2JH image), with a manifest of the keys the
# course needs (a hub's first start that finds it builds nothing). Without it `make lab` builds
# each grid in the background the first time an explorer is shown (into ~/.cache/genviz/states);
# `make hub` does not depend on it: the hub's rebuild service builds what is missing at its first
# start, in the background (~7 CPU-min for the whole course; deploy/README.md).
.PHONY: states
states: $(STAMP) $(IRI_PTH)
	MPLBACKEND=Agg $(PY) -m genviz.widgets.states build notebooks

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info

# Real-browser tests (browser_tests/): JupyterLab, Voila and the trial hub (test_hub.py: needs
# configurable-http-proxy on PATH) driven by Debian's Chromium through Playwright. Never
# `playwright install` (it downloads its own browser). Own stamp, so `make test` does not pay
# for Playwright.
BROWSER_STAMP := $(VENV)/.genviz-browser-installed
CHROMIUM      ?= /usr/bin/chromium
$(BROWSER_STAMP): $(STAMP) $(IRI_PTH)
	$(PY) -m pip install --quiet -e ".[lab,test,browser,hub]"
	@touch $(BROWSER_STAMP)

# Two workers, one test file each at a time (servers are per worker; the latency table is merged
# by the controller: browser_tests/conftest.py). BROWSER_JOBS=0 runs them one after another: the
# latency figures of record (benchmarks/browser_latency.md) come from such a run, since the other
# worker's kernels share the cores (with two workers 07's gridded p95 was 41 ms against 16).
BROWSER_JOBS ?= 2
test-browser: $(BROWSER_STAMP)
	$(ENSURE_PROXY)
	@test -x $(CHROMIUM) || { echo "make test-browser needs Chromium at $(CHROMIUM)."; \
		echo "Install it with: apt-get install -y chromium   (as root)"; exit 1; }
	GENVIZ_CHROMIUM=$(CHROMIUM) $(PY) -m pytest browser_tests -v -p no:cacheprovider \
		-n $(BROWSER_JOBS) --dist loadfile --durations=25

# Lecture mode: Voila serves notebooks/ with code hidden and widgets live, on 127.0.0.1 only.
# No token: Voila lets a browser send only widget (comm) messages, never code to execute, and
# the port is not reachable from other machines. Kernels start with genviz's lecture style
# (large fonts, thick lines, figures sized for 1280x720) via an IPython startup file kept in
# the venv; the page uses the genviz-lecture Voila template (share/jupyter/voila/templates:
# projector-size prose, slider labels, readouts and buttons).
PRESENT_PORT ?= 8866
LECTURE_IPYTHONDIR := $(abspath $(VENV))/genviz-lecture-ipython
present: $(STAMP) $(IRI_PTH)
	@mkdir -p $(LECTURE_IPYTHONDIR)/profile_default/startup
	@printf '%s\n' 'from genviz.plots.style import set_lecture_mode' 'set_lecture_mode(True)' \
		> $(LECTURE_IPYTHONDIR)/profile_default/startup/00-genviz-lecture.py
	IPYTHONDIR=$(LECTURE_IPYTHONDIR) $(PROJECT_JUPYTER_PATH) \
		$(VENV)/bin/voila notebooks --no-browser --template=genviz-lecture \
		--port=$(PRESENT_PORT) --Voila.ip=127.0.0.1 $(VOILA_FLAGS)

# The course website (docs/, scripts/build_site.py): every notebook executed (cached by content
# hash in build/site-cache/, so a rebuild redoes only changed notebooks, or all of them when genviz
# changed) into build/site/. A cell
# error fails the build. Works offline; needs no Chromium. `make test-site` checks it in Chromium
# (offline, alt texts, maths, 390 px) and runs the axe accessibility audit (also on JupyterLab
# and Voila renders); `make test-browser` runs the same tests with the rest of the suite.
.PHONY: site test-site
SITE_STAMP := $(VENV)/.genviz-site-installed
$(SITE_STAMP): $(STAMP) $(IRI_PTH)
	$(PY) -m pip install --quiet -e ".[lab,test,browser,site]"
	@touch $(SITE_STAMP)

site: $(SITE_STAMP)
	$(PY) scripts/build_site.py

test-site: site
	@test -x $(CHROMIUM) || { echo "make test-site needs Chromium at $(CHROMIUM)."; \
		echo "Install it with: apt-get install -y chromium   (as root)"; exit 1; }
	GENVIZ_CHROMIUM=$(CHROMIUM) $(PY) -m pytest browser_tests/test_site.py browser_tests/test_a11y.py \
		-v -p no:cacheprovider

# Graded assignments (course/, docs/grade-a-class.md): `make assignments ROSTER=FILE` writes the
# instructor's source notebooks and, for every student id of FILE (one a line), that student's
# own variant into $(COURSE_ROOT)/release/<student>/<assignment>/ (the course secret, made on
# first use, is $$GENVIZ_COURSE_SECRET_FILE or ~/.config/genviz/course-secret: keep it).
# `make grade COURSE=DIR` grades DIR/submitted/<student>/<assignment>/: each notebook runs in a
# bubblewrap sandbox (apt-get install bubblewrap), its answers are checked outside, and the
# scores go to DIR/gradebook.db, DIR/grades.csv, DIR/grading_report.csv and DIR/feedback/.
# Without a working sandbox it refuses to start (UNSAFE=1 grades without one: do not).
# `make solution STUDENT=ID ASSIGNMENT=A` writes that student's solved variant to
# $(COURSE_ROOT)/solutions/ID/A/. nbgrader runs `alembic`, so the venv's bin goes first on PATH.
GRADE_STAMP := $(VENV)/.genviz-grade-installed
COURSE_ROOT ?= build/course
JOBS        ?= 1
TIMEOUT     ?= 60
GRADE_ENV   := PATH=$(abspath $(VENV))/bin:$$PATH
$(GRADE_STAMP): $(STAMP) $(IRI_PTH)
	$(PY) -m pip install --quiet -e ".[lab,test,grade]"
	@touch $(GRADE_STAMP)

.PHONY: grade-args solution
grade-args:
	@test -n "$(COURSE)" || { echo "usage: make grade COURSE=DIR   (submissions in DIR/submitted/<student>/<assignment>/)"; exit 1; }

assignments: $(GRADE_STAMP)
	$(GRADE_ENV) $(PY) -m course.build --root $(COURSE_ROOT) $(if $(ROSTER),--roster $(ROSTER),)

grade: grade-args $(GRADE_STAMP)
	$(GRADE_ENV) $(PY) -m course.grade $(COURSE) --jobs $(JOBS) --timeout $(TIMEOUT) \
		$(if $(ROSTER),--roster $(ROSTER),) $(if $(HANDED_IN),--handed-in $(HANDED_IN),) \
		$(if $(filter 1 yes true,$(UNSAFE)),--unsafe,)

solution: $(GRADE_STAMP)
	@test -n "$(STUDENT)" -a -n "$(ASSIGNMENT)" || { echo "usage: make solution STUDENT=ID ASSIGNMENT=a03_gda"; exit 1; }
	$(GRADE_ENV) $(PY) -m course.build --root $(COURSE_ROOT) --solution $(STUDENT) $(ASSIGNMENT)

# A class on one JupyterHub (benchmarks/bench_class.py): for each N, a trial hub with the
# deployment's configuration (deploy/jupyterhub_config.py) on a free 127.0.0.1 port; N simulated
# students arrive within ARRIVE s, log in, start a server, run NOTEBOOK over the kernel websocket
# as JupyterLab does, and drag a slider together (MOVES moves, one every INTERVAL s each). Writes
# benchmarks/class-run.md (Markdown) and class-run.jsonl; bounded by MAX_SECONDS; stops every
# process it started, by PID. Needs the hub extra's packages (jupyterhub, the idle culler,
# configurable-http-proxy on PATH).
.PHONY: bench-class
N            ?= 1 10 20 40
ARRIVE       ?= 10
MOVES        ?= 40
INTERVAL     ?= 0.15
NOTEBOOK     ?= 00_start_here.ipynb
CULL_TIMEOUT ?= 30
MAX_SECONDS  ?= 2400
HUB_CONFIG   ?= deploy/jupyterhub_config.py
BENCH_CLASS_STAMP := $(VENV)/.genviz-bench-class-installed
$(BENCH_CLASS_STAMP): $(STAMP) $(IRI_PTH)
	$(PY) -m pip install --quiet -e ".[lab,test,hub,bench]"
	@touch $(BENCH_CLASS_STAMP)

bench-class: $(BENCH_CLASS_STAMP)
	$(PY) benchmarks/bench_class.py --hub-config $(HUB_CONFIG) --n $(N) --arrive-within $(ARRIVE) \
		--moves $(MOVES) --interval $(INTERVAL) --notebook $(NOTEBOOK) \
		--cull-timeout $(CULL_TIMEOUT) --max-seconds $(MAX_SECONDS) \
		--out benchmarks/class-run.md --json benchmarks/class-run.jsonl
# The trial JupyterHub (deploy/): any user name logs in (dummy authenticator, 127.0.0.1 only),
# each user gets a home under build/hub/home with the course notebooks, JupyterLab with the
# project's settings, the idle culler. deploy/run_hub.py checks what is missing (proxy, ports)
# before it starts, stops what a killed hub left running (and says what), and on Ctrl-C stops
# the hub and every server and kernel within seconds. configurable-http-proxy (Node.js) comes
# from PATH, else from npm into build/node.
.PHONY: hub
HUB_PORT  ?= 8000
HUB_STAMP := $(VENV)/.genviz-hub-installed
$(HUB_STAMP): $(STAMP) $(IRI_PTH)
	$(PY) -m pip install --quiet -e ".[lab,test,hub]"
	@touch $(HUB_STAMP)

# The room votes under load (benchmarks/bench_votes.py): N students commit within 10 s against
# the poll service behind a trial hub; commit -> lecturer's chart, service memory ->
# benchmarks/votes.md. Stops everything it started, by PID.
.PHONY: bench-votes
bench-votes: $(BENCH_CLASS_STAMP)
	$(PY) benchmarks/bench_votes.py

# The lecture page's questions and explorers (deploy/poll/lecture_bundle.py: the notebooks run,
# a few minutes) installed in the venv, $(VENV)/share/genviz/lecture_bundle.json: the file the
# trial hub's poll service reads (deploy/poll/hub_config.py installed_bundle; postBuild installs
# the same in an image). `make hub` does not depend on it (the hub starts at once; its start
# message says whether the file is there); build it again after changing the course.
.PHONY: lecture-bundle
lecture-bundle: $(STAMP) $(IRI_PTH)
	MPLBACKEND=Agg $(PY) deploy/poll/lecture_bundle.py build --out $(VENV)/share/genviz/lecture_bundle.json

hub: $(HUB_STAMP) $(LAB_OVERRIDES)
	$(ENSURE_PROXY)
	HUB_PORT=$(HUB_PORT) $(PY) deploy/run_hub.py
