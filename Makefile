# Everything runs from .venv, built with the machine's python3 on first use, installed from the
# hash-pinned lock files. A stamp inside .venv remembers which lock was installed, so pip runs
# again only when it changes. requirements*.txt name what we depend on; `make lock` regenerates
# requirements*.lock (the whole tree, with hashes) from them.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: run test test-fast lint bench migrate lock

$(PY):
	$(PYTHON) -m venv $(VENV)

$(VENV)/.stamp-run: requirements.lock | $(PY)
	$(PY) -m pip install --disable-pip-version-check -q --require-hashes -r requirements.lock
	touch $@

$(VENV)/.stamp-dev: requirements.lock requirements-dev.lock | $(PY)
	$(PY) -m pip install --disable-pip-version-check -q --require-hashes -r requirements-dev.lock
	touch $@ $(VENV)/.stamp-run

PIP_COMPILE := $(VENV)/bin/pip-compile -q --generate-hashes --strip-extras --allow-unsafe --no-header
lock: $(VENV)/.stamp-dev
	$(PIP_COMPILE) -o requirements.lock requirements.txt
	$(PIP_COMPILE) -o requirements-dev.lock requirements-dev.txt

migrate: $(VENV)/.stamp-run
	$(PY) manage.py migrate --noinput

# `make run PORT=8201` when 8000 is taken.
PORT ?= 8000
run: migrate
	@echo "Serving on http://127.0.0.1:$(PORT)/"
	DJANGO_DEBUG=$${DJANGO_DEBUG:-1} $(PY) -m config.serve -b 127.0.0.1 -p $(PORT) config.asgi:application

# The browser tests drive Debian's Chromium (never a downloaded browser); a CJK font makes
# their screenshots readable.
CHROMIUM := /usr/bin/chromium
$(CHROMIUM):
	@echo "installing Debian's chromium for the browser tests (needs root)"
	apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium fonts-wqy-microhei

# The tests run in two processes per core (pytest-xdist), a test file to a process so that a
# file's servers and browser start once. Two a core, since a browser test spends most of
# its time waiting for the table's bots (they move at the deadline sweeper's pace), not
# computing. Files are handed out in the order collected, the browser tests' folder first:
# the longest files start first instead of last (xdist's default puts the files with the
# most tests first). Not with REDIS_URL set: there the tests share one Redis and one Celery
# worker on one test database, so they run in one process (TEST_WORKERS=0 asks for that).
TEST_WORKERS ?= $(if $(REDIS_URL),0,$(shell echo $$(( $$(nproc) * 2 ))))
PYTEST := $(PY) -m pytest --dist loadfile --no-loadscope-reorder

test: $(VENV)/.stamp-dev | $(CHROMIUM)
	$(PYTEST) -n $(TEST_WORKERS)

# What needs no browser, no servers in processes and no PostgreSQL (markers: pyproject.toml).
# These tests compute rather than wait: one process a core.
FAST_WORKERS ?= $(if $(REDIS_URL),0,auto)
test-fast: $(VENV)/.stamp-dev
	$(PYTEST) -n $(FAST_WORKERS) -m "not browser and not integration and not postgresql"

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
