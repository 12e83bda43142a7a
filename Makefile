# Two commands are the whole setup on a fresh machine (README.md):
#   make serve   build the bilingual site and serve it on 127.0.0.1:8000
#   make test    install what the tests need and run them
VENV      ?= .venv
PY        := $(VENV)/bin/python
PYTHON    ?= python3
HOST      ?= 127.0.0.1
PORT      ?= 8000

.PHONY: serve test site venv clean bench

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.stamp-docs: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[docs]'
	touch $@

$(VENV)/.stamp-test: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[docs,test]'
	touch $@

venv: $(VENV)/.stamp-test

site: $(VENV)/.stamp-docs
	$(PY) -m mkdocs build --strict

serve: site
	@echo "serving the site on http://$(HOST):$(PORT)/  (the port itself: $(VENV)/bin/minikcm --help)"
	$(PY) -m http.server --bind $(HOST) --directory site $(PORT)

test: $(VENV)/.stamp-test
	$(PY) -m pytest $(PYTEST_ARGS)

bench: $(VENV)/.stamp-test
	for b in benchmarks/*.py; do $(PY) $$b || exit 1; done

clean:
	rm -rf site build dist *.egg-info .pytest_cache
