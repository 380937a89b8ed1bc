# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint format bench demo migrate clean

$(BIN)/.installed: requirements.txt constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --disable-pip-version-check -q -r requirements.txt -c constraints.txt
	touch $@

migrate: $(BIN)/.installed
	$(BIN)/python manage.py migrate --no-input

demo: migrate
	$(BIN)/python manage.py load_demo

run: demo
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

lint: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(BIN)/.installed
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

test: lint
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/pytest -n $${PYTEST_WORKERS:-auto} $(PYTEST_ARGS)

bench: $(BIN)/.installed
	$(BIN)/python bench/run.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .venv-ci .schemathesis db.sqlite3 db.sqlite3-* staticfiles .pytest_cache .ruff_cache .hypothesis test-artifacts

# As in production: gunicorn, a Celery worker and Celery beat (the Procfile, run by honcho)
# against the PostgreSQL and Redis of DATABASE_URL and REDIS_URL, after migrate and collectstatic.
.PHONY: serve
serve: $(BIN)/.installed
	@case "$$DATABASE_URL" in postgres://*|postgresql://*) ;; *) echo "make serve needs DATABASE_URL=postgres://... (PostgreSQL)" >&2; exit 2;; esac
	@test -n "$$REDIS_URL" || { echo "make serve needs REDIS_URL=redis://... (Redis: cache and Celery broker)" >&2; exit 2; }
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py collectstatic --no-input
	PATH="$(CURDIR)/$(BIN):$$PATH" HOST=$(HOST) $(BIN)/honcho start --port $(PORT)
