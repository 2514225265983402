# The two set-up commands of the README: `make serve` and `make test`.
# Both create the virtual environment (.venv) on first use.
PYTHON ?= python3
VENV ?= .venv
STAMP := $(VENV)/.taku-installed

.PHONY: serve test bench bench-peers schema mutate

$(STAMP): pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q -e '.[test]'
	touch $(STAMP)

serve: $(STAMP)
	$(VENV)/bin/taku serve $(ARGS)

test: $(STAMP)
	VENV=$(VENV) bash scripts/test.sh $(ARGS)

bench: $(STAMP)
	$(VENV)/bin/python bench/run_all.py

# taku against Colyseus and a bare websockets server under one Node load generator
# (../shared/peerbench, beside the checkout; it installs Node and the peers' packages on
# first use): issue 16's figures, medians of three rounds, about 12 minutes
# (bench/peers.py; ARGS="--runs 1" for one). One run of every peer, boardgame.io
# included: bash ../shared/peerbench/run.sh . PEERBENCH=DIR points at another copy.
PEERBENCH ?= ../shared/peerbench
bench-peers: $(STAMP)
	$(VENV)/bin/python bench/peers.py --peerbench $(PEERBENCH) $(ARGS)

schema: $(STAMP)
	$(VENV)/bin/taku schema

# Mutation testing of one module against its tests (scripts/mutate.py; not in CI):
#   make mutate MODULE=server/taku/core/dice.py [ARGS="--tests tests/core"]
mutate: $(STAMP)
	test -x $(VENV)/bin/mutmut || $(VENV)/bin/python -m pip install -q -e '.[test,mutate]'
	$(VENV)/bin/python scripts/mutate.py $(MODULE) $(ARGS)
