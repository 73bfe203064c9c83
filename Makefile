# meshc: make demo | make test | make bench | make fuzz
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TSTAMP := $(VENV)/.installed-test

.PHONY: demo test unit lit fuzz fuzz-short bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP): pyproject.toml setup.py meshc/sim/_stream_copy.c | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(TSTAMP): pyproject.toml setup.py meshc/sim/_stream_copy.c | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP) $@

demo: $(STAMP)
	$(BIN)/meshc-opt examples/flagship_transformer_t3k.mlir -p 'ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}' -o /tmp/meshc-flagship.ttnn.mlir
	$(BIN)/meshc-run /tmp/meshc-flagship.ttnn.mlir --golden examples/flagship_transformer_t3k.mlir --check --report

unit: $(TSTAMP)
	$(BIN)/python -m pytest -n auto test/unit

lit: $(TSTAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/lit -sv test/lit

# lit runs the tools through a fork server (test/lit/tool_server.py); the front-door tests run a
# second time through the installed console scripts, so real start-ups, exit codes and the
# absence of tracebacks are tested as a user meets them
DIRECT_LIT := test/lit/tools/opt-*.mlir test/lit/tools/run-errors.mlir test/lit/tools/run-input-errors.mlir \
	test/lit/tools/viz-errors.mlir test/lit/tools/implicit-module-location.mlir test/lit/importers/input-errors.mlir \
	test/lit/tools/outputs-on-failure.mlir test/lit/tools/run-outputs-on-failure.mlir test/lit/tools/input-nesting.mlir \
	test/lit/tools/run-input-files.mlir test/lit/tools/run-attribute-errors.mlir test/lit/tools/run-aggregate-errors.mlir \
	test/lit/tools/module-blocks.mlir

test: $(TSTAMP)
	$(BIN)/python -m pytest -n auto test/unit
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/lit -s test/lit
	MESHC_LIT_DIRECT=1 PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/lit -s $(DIRECT_LIT)
	$(MAKE) fuzz-short

# a short fixed-seed fuzz run: fails on any internal error, hang, out of memory or unlocated error
fuzz-short: $(TSTAMP)
	$(BIN)/python -m fuzz --inputs 1000 --seed 7 --out fuzz-out/short --quiet

# the long campaign (README, Robustness): 100,000 inputs, fixed seed, counts printed at the end
fuzz: $(TSTAMP)
	$(BIN)/python -m fuzz --inputs 100000 --seed 1 --out fuzz-out/long

bench: $(STAMP)
	$(BIN)/python bench/compile.py
	$(BIN)/python bench/sim.py
	$(BIN)/python bench/reshard.py
	$(BIN)/python bench/autoshard.py
	$(BIN)/python bench/scale.py

clean:
	rm -rf $(VENV) build *.egg-info meshc/sim/_stream_copy*.so
