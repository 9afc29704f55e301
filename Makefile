# The two commands of the README. Each creates .venv on a fresh machine first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP_RUN := $(VENV)/.installed-run
STAMP_TEST := $(VENV)/.installed-test

.PHONY: run test test-fast lint sample clean bench-env

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q -U pip

$(STAMP_RUN): pyproject.toml | $(PY)
	$(PY) -m pip install -q -e .
	touch $@

$(STAMP_TEST): pyproject.toml constraints-test.txt | $(PY)
	$(PY) -m pip install -q -c constraints-test.txt -e '.[test,dvc,notebook,ray,s3]'
	touch $@ $(STAMP_RUN)

run: $(STAMP_RUN)
	$(VENV)/bin/pipeline run data/sample --out out/sample

test: $(STAMP_TEST)
	$(PY) -m ruff check pipeline filters samplegen tests benchmarks
	$(PY) -m mypy pipeline filters
	# Two test processes (most tests use one core); a file's tests stay together and in order (test_dvc's build on each other).
	$(PY) -m pytest -q -n 2 --dist loadfile

# The unit tier, for the inner loop (about 26 s on 2 cores, 1,710 tests): the filters' tests and the layout, docs and
# library-use checks; no pipeline run, no sample run, no test of the shared corpora (marked `corpus` by
# tests/conftest.py). `make test` stays the whole suite.
test-fast: $(STAMP_TEST)
	$(PY) -m pytest -q -n 2 --dist loadfile -m "not corpus" tests/filters tests/test_layout.py tests/test_docs.py tests/test_library_use.py

sample: $(STAMP_RUN)
	$(VENV)/bin/pipeline sample --out data/sample

# benchmarks/compare.py's datatrove, in its own environment (its trafilatura pin differs from ours).
bench-env: .venv-datatrove-same/.installed .venv-datatrove/.installed

.venv-datatrove-same/.installed: benchmarks/datatrove-same-trafilatura-requirements.txt
	$(PYTHON) -m venv .venv-datatrove-same
	.venv-datatrove-same/bin/python -m pip install -q -U pip
	.venv-datatrove-same/bin/python -m pip install -q -r benchmarks/datatrove-same-trafilatura-requirements.txt
	touch $@

.venv-datatrove/.installed: benchmarks/datatrove-requirements.txt
	$(PYTHON) -m venv .venv-datatrove
	.venv-datatrove/bin/python -m pip install -q -U pip
	.venv-datatrove/bin/python -m pip install -q -r benchmarks/datatrove-requirements.txt
	touch $@

clean:
	rm -rf out .pytest_cache
