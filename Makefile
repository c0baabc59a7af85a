# The two commands of the README: `make run` and `make test`. Everything else is set-up.
SHELL := /bin/bash
PYTHON ?= $(shell for p in python3.13 python3.12 python3; do \
	if command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then command -v $$p; break; fi; done)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test setup translations migrate lint bench lighthouse fuzz serve-prod clean

run: setup
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

test: setup
	$(BIN)/ruff check .
	PYTHONPATH=site $(BIN)/lint-imports
	$(BIN)/python manage.py makemigrations --check --dry-run --verbosity 0
	$(BIN)/python -m pytest $(PYTEST_ARGS)

setup: $(STAMP) translations migrate

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "Python >= 3.12 is required (see .python-version)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,postgres]"
	touch $(STAMP)

translations: $(STAMP)
	$(BIN)/python -m scripts.compile_translations

migrate: $(STAMP)
	$(BIN)/python manage.py migrate --verbosity 0
	$(BIN)/python manage.py simulate_figures --games 40 --if-missing

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Every performance figure beside its goal (engine, page server time, transfer, DOM, demo).
bench: setup
	$(BIN)/python benchmarks/bench.py

# Lighthouse 12.2.3 (npm, installed under ~/.cache on first use) with the system Chromium.
lighthouse: setup
	$(BIN)/python benchmarks/lighthouse.py

# The long fuzz profile (docs/hardening.md): production settings, gunicorn, >= 10,000 requests.
FUZZ_REQUESTS ?= 10000
FUZZ_SERVER ?= gunicorn
fuzz: setup
	$(BIN)/python -m tests.fuzz.campaign --requests $(FUZZ_REQUESTS) --server $(FUZZ_SERVER)

serve-prod: setup
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BIN)/gunicorn --pythonpath site config.asgi:application --worker-class uvicorn_worker.UvicornWorker --bind $(HOST):$(PORT) --workers $(if $(REDIS_URL),2,1)

clean:
	rm -rf $(VENV) staticfiles db.sqlite3 db.sqlite3-shm db.sqlite3-wal
	find locale -name '*.mo' -delete
