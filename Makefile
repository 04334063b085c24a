# Two commands on a fresh machine:
#   make site   set up a virtualenv with pinned dependencies and build the site into site/
#   make test   set up everything the tests need (Debian packages included) and run them all
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: site test serve catalogs check-catalogs bench mutants clean

# The Play page copies Pyodide from its npm package (node_modules/pyodide) into the site.
site: $(VENV)/.site node_modules/.installed
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

test: $(VENV)/.test $(VENV)/.external node_modules/.installed
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m pytest -n 2 --dist loadgroup

serve: $(VENV)/.site node_modules/.installed
	$(BIN)/mkdocs serve

# Translator workflow (see docs/translators.md)
catalogs: $(VENV)/.site
	$(BIN)/mariage catalogs update

check-catalogs: $(VENV)/.site
	$(BIN)/mariage catalogs check

# The optional `schnapsen` package (for scale) pins an older click than mkdocs' pin: install
# it without its click pin ($(VENV)/.external), then time the engine, the site build and serve;
# figures.py writes the results (benchmarks/results/, not committed) into the README's table.
bench: $(VENV)/.test $(VENV)/.external
	$(BIN)/pip install -q -c constraints.txt class_resolver flask joblib scikit-learn Werkzeug
	mkdir -p benchmarks/results
	$(BIN)/python benchmarks/engine.py > benchmarks/results/engine.json
	$(BIN)/python benchmarks/replay_cli.py > benchmarks/results/replay_cli.json
	$(BIN)/python benchmarks/solver.py > benchmarks/results/solver.json
	$(BIN)/python benchmarks/opponent.py > benchmarks/results/opponent.json
	$(BIN)/python benchmarks/build.py > benchmarks/results/build.json
	$(BIN)/python benchmarks/serve.py > benchmarks/results/serve.json
	$(BIN)/python benchmarks/serve.py --langs fr > benchmarks/results/serve-fr.json
	$(BIN)/python benchmarks/input_limits.py
	$(BIN)/python benchmarks/suite.py > benchmarks/results/suite.json
	$(BIN)/python benchmarks/figures.py      # the table the README quotes

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.site: $(VENV)/bin/python pyproject.toml constraints.txt
	bash .ci/system-deps.sh site
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -c constraints.txt -e .
	touch $@

$(VENV)/.test: $(VENV)/bin/python pyproject.toml constraints.txt
	bash .ci/system-deps.sh
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -c constraints.txt -e ".[test]"
	touch $(VENV)/.site $@

# The external engine the tests play Schnapsen against (tests/engine/test_external_engine.py):
# VU's `schnapsen` pins an older click than mkdocs, and its game module needs none of its
# dependencies, so it goes in without them.
$(VENV)/.external: $(VENV)/.test
	$(BIN)/pip install -q --no-deps schnapsen==0.0.5
	touch $@

node_modules/.installed: package.json package-lock.json
	bash .ci/system-deps.sh site
	npm ci --no-audit --no-fund
	touch $@

clean:
	rm -rf site .site.new-* .cache

# Mutation run over the engine, the generator and the publisher (see benchmarks/mutants.py).
mutants: $(VENV)/.test
	$(BIN)/python benchmarks/mutants.py
