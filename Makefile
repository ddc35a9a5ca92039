# Everything runs from .venv, built with the machine's python3 on first use. A stamp inside
# .venv remembers which requirements were installed, so pip runs again only when they change.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: run test lint bench migrate

$(PY):
	$(PYTHON) -m venv $(VENV)

$(VENV)/.stamp-run: requirements.txt | $(PY)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements.txt
	touch $@

$(VENV)/.stamp-dev: requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements-dev.txt
	touch $@ $(VENV)/.stamp-run

migrate: $(VENV)/.stamp-run
	$(PY) manage.py migrate --noinput

run: migrate
	@echo "Serving on http://127.0.0.1:8000/"
	$(PY) -m config.serve -b 127.0.0.1 -p 8000 config.asgi:application

# The browser tests drive Debian's Chromium (never a downloaded browser); a CJK font makes
# their screenshots readable.
CHROMIUM := /usr/bin/chromium
$(CHROMIUM):
	@echo "installing Debian's chromium for the browser tests (needs root)"
	apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium fonts-wqy-microhei

test: $(VENV)/.stamp-dev | $(CHROMIUM)
	$(PY) -m pytest

lint: $(VENV)/.stamp-dev
	$(VENV)/bin/ruff check .

# BENCH_TABLES=N sets the table benchmark's size; BENCH_ARGS goes to it too (e.g.
# BENCH_ARGS="--think 1 --profile"); BENCH=tables runs only tests/bench/bench_tables.py.
BENCH ?= *
bench: $(VENV)/.stamp-dev
	@for f in tests/bench/bench_$(BENCH).py; do \
		[ -e "$$f" ] || { echo "no benchmarks in tests/bench"; break; }; \
		case "$$f" in *bench_tables.py) args="$(BENCH_ARGS)";; *) args="";; esac; \
		echo "== $$f"; PYTHONPATH=$(CURDIR) $(PY) $$f $$args || exit 1; \
	done
