# genviz: the two commands a newcomer needs are `make lab` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.genviz-installed
PORT   ?= 8888
# Jupyter refuses to run as root (containers, CI) unless told so; ordinary users never need it.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: lab test bench clean help

help:
	@echo "make lab    - set up .venv and start JupyterLab on notebooks/ (127.0.0.1, token auth)"
	@echo "make test   - set up .venv and run every test (unit, oracle, doctest, widget, nbval)"
	@echo "make bench  - measure explorer update latency against the naive approach"

# (Re)install whenever pyproject.toml changes. genviz is installed editable.
$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[lab,test]"
	@touch $(STAMP)

lab: $(STAMP)
	$(VENV)/bin/jupyter lab --no-browser --ip=127.0.0.1 --port=$(PORT) $(ALLOW_ROOT) \
		--ServerApp.root_dir=notebooks

# Matplotlib runs headless (Agg) in the test process; notebooks select ipympl themselves.
test: $(STAMP)
	MPLBACKEND=Agg $(PY) -m pytest --doctest-modules --nbval-lax genviz tests notebooks

bench: $(STAMP)
	MPLBACKEND=Agg $(PY) benchmarks/run.py

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
