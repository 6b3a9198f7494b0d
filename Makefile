# The two commands of README.md: `make run` and `make test`. Everything else is a helper.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
PG_URL ?= postgres://postgres@127.0.0.1:5432/fiftysix
REDIS_URL ?= redis://127.0.0.1:6379/15
HOST ?= 127.0.0.1:8000

.PHONY: release run port-free test venv lock lint js format browser proxy test-sqlite test-postgres test-bench test-container services demo bench check-deploy restore-drill messages clean

# The locked versions, with their hashes (CONTRIBUTING.md, "The lock"): the venv, the
# image (deploy/Containerfile) and CI install exactly these; pyproject.toml keeps ranges.
LOCK_DEV := requirements/dev.lock
LOCK_PROD := requirements/prod.lock
PIP_COMPILE := $(BIN)/pip-compile --quiet --generate-hashes --strip-extras --allow-unsafe \
	--no-emit-index-url --no-emit-find-links

venv: $(STAMP)

# Quiet: one line says what it does; pip speaks only of what fails.
$(STAMP): pyproject.toml $(LOCK_DEV)
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11 or newer is needed, found " + sys.version' 
	@echo "Installing the locked packages into $(VENV) (a few minutes, the first time only)"
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes -r $(LOCK_DEV)
	@$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	@$(BIN)/python -m pip check --disable-pip-version-check >/dev/null || { $(BIN)/python -m pip check; echo "pyproject.toml asks for more than $(LOCK_DEV) holds: make lock" >&2; exit 1; }
	@touch $(STAMP)

# Writes both locks from pyproject.toml's ranges (and requirements/bookworm.in), keeping
# every pin that still fits;
# `make lock PIP_COMPILE_ARGS=--upgrade` (or `--upgrade-package django`) moves pins on.
# The production lock is constrained by the development one: the same versions in both.
lock:
	test -x $(BIN)/pip-compile || { test -x $(BIN)/python || $(PYTHON) -m venv $(VENV); \
	  $(BIN)/python -m pip install --quiet pip-tools; }
	$(PIP_COMPILE) $(PIP_COMPILE_ARGS) --extra dev -o $(LOCK_DEV) pyproject.toml requirements/bookworm.in
	$(PIP_COMPILE) $(PIP_COMPILE_ARGS) -c $(LOCK_DEV) -o $(LOCK_PROD) pyproject.toml requirements/bookworm.in

# The port first (with the machine's python3, before anything is installed), so a
# taken one fails at once, saying how to choose another: `make run HOST=127.0.0.1:8001`.
# Then quietly: the migrations, the demo (`manage.py demo`: a line per tournament,
# then the link of table 1 and the demo logins, last before the server starts).
run: port-free venv
	@$(BIN)/python manage.py migrate --no-input -v 0
	@$(BIN)/python manage.py demo --host $(HOST)
	@echo "Serving http://$(HOST)/ (API docs at /api/v1/docs/); Ctrl-C stops."
	@$(BIN)/python manage.py runserver $(HOST)

port-free:
	@$(PYTHON) .ci/port_free.py $(HOST)

test: venv lint js browser proxy test-sqlite test-postgres test-bench test-container

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The score page's offline queue (static/js/score/) without a browser: its rules and
# its sending against a fake server, with Node's own test runner (no npm package);
# Debian's nodejs is installed when it is missing. SEEDS=2000 searches longer.
js:
	@command -v node >/dev/null || { \
	  echo "Installing Debian's nodejs for the offline queue's tests"; \
	  SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
	  $$SUDO apt-get install -y --no-install-recommends nodejs \
	  || { $$SUDO apt-get update && $$SUDO apt-get install -y --no-install-recommends nodejs; }; }
	node --test tests/js/

format: venv
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# The browser tests drive Debian's chromium, never a downloaded browser: install it
# from Debian's packages when it is missing (as root, or through sudo), with a
# Malayalam font for the screenshots and axe-core (npm) for the accessibility checks.
browser:
	@command -v chromium >/dev/null || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
	  $$SUDO apt-get install -y --no-install-recommends chromium \
	  || { $$SUDO apt-get update && $$SUDO apt-get install -y --no-install-recommends chromium; }; }
	@fc-list :lang=ml | grep -q . || { \
	  echo "Installing a Malayalam font (Manjari) for the browser tests' screenshots"; \
	  SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
	  $$SUDO apt-get install -y --no-install-recommends fonts-smc-manjari \
	  || { $$SUDO apt-get update && $$SUDO apt-get install -y --no-install-recommends fonts-smc-manjari; }; }
	@command -v npm >/dev/null || { \
	  echo "Installing Debian's npm, to fetch axe-core for the accessibility checks"; \
	  SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
	  $$SUDO apt-get install -y --no-install-recommends npm \
	  || { $$SUDO apt-get update && $$SUDO apt-get install -y --no-install-recommends npm; }; }
	@test -f tests/axe/node_modules/axe-core/axe.min.js || { \
	  echo "Installing axe-core from npm for the accessibility checks (tests only, never served)"; \
	  npm ci --prefix tests/axe --no-audit --no-fund; }

# `python -m bench faults` puts Debian's Caddy in front of its own web instances, as
# production does (docs/reliability.md), and the SQLite pass runs the shipped Caddy
# and nginx files in front of gunicorn (tests/config/test_proxy.py and
# test_slow_clients.py): install Debian's caddy and nginx-light when missing (nginx
# is in /usr/sbin, outside a user's PATH).
proxy:
	@command -v caddy >/dev/null || { \
	  echo "Installing Debian's caddy for the proxy tests and the faults benchmark"; \
	  SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
	  $$SUDO apt-get install -y --no-install-recommends caddy \
	  || { $$SUDO apt-get update && $$SUDO apt-get install -y --no-install-recommends caddy; }; }
	@command -v nginx >/dev/null || test -x /usr/sbin/nginx || { \
	  echo "Installing Debian's nginx-light for the proxy tests"; \
	  SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
	  $$SUDO apt-get install -y --no-install-recommends nginx-light \
	  || { $$SUDO apt-get update && $$SUDO apt-get install -y --no-install-recommends nginx-light; }; }

# The suite runs on every core, two workers a core (pytest-xdist: one runs while the
# other waits for its browser, server or database; `make test-sqlite TEST_WORKERS=0` in
# one process), each worker with a test database of its own (CONTRIBUTING.md, "The
# tests").
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) * 2 )))
PYTEST := $(BIN)/pytest -q -n $(TEST_WORKERS)

test-sqlite: venv proxy
	env -u DATABASE_URL -u CELERY_BROKER_URL $(PYTEST)

# The tests that use the database again on PostgreSQL, with Celery tasks sent through
# Redis to a real worker (one per pytest worker, on its own queue).
test-postgres: venv services
	DATABASE_URL=$(PG_URL) CELERY_BROKER_URL=$(REDIS_URL) $(PYTEST) --database-tests-only

# Every benchmark at a size of seconds, in one process, in both orders (tests/bench),
# the two orders at once: they need PostgreSQL and Redis, as `make bench` does, and
# `faults` needs Caddy.
test-bench: venv services proxy
	env -u DATABASE_URL -u CELERY_BROKER_URL $(BIN)/pytest -q -n 2 -m bench

# PostgreSQL and Redis must be up for the second pass: start them if this machine has them.
services:
	@.ci/services

# The fourth pass (docs/deploy.md, "The CI pass"): builds the image of deploy/Containerfile
# with podman (installed from Debian's packages when missing), runs a web and a worker
# container against this machine's PostgreSQL and Redis, plays a tournament through them
# and has the worker build its workbook; checks deploy/compose.yaml. Fails, never skips.
test-container: venv services
	.ci/container

# Every benchmark at full size, then the table of figures against their goals
# (docs/performance.md); about 12 minutes on 2 cores. Needs PostgreSQL, Redis and Caddy.
bench: venv services proxy
	$(BIN)/python -m bench

# The restore drill (docs/backups.md): dump the database of the production settings
# with pg_dump -Fc, restore it into a scratch database, compare every table's row count
# and checksum. The PostgreSQL pass of the suite runs it on its own database too.
restore-drill: venv services
	DATABASE_URL=$${DATABASE_URL:-$(PG_URL)} $(BIN)/python manage.py restore_drill

check-deploy: venv
	DJANGO_DEBUG=false DJANGO_SECRET_KEY=$$($(BIN)/python -c 'import secrets; print(secrets.token_urlsafe(50))') \
	DJANGO_ALLOWED_HOSTS=fiftysix.example.org DATABASE_URL=$(PG_URL) CELERY_BROKER_URL=$(REDIS_URL) \
	$(BIN)/python manage.py check --deploy --fail-level WARNING

# The Malayalam catalogue (docs/glossary.md): collect what the templates mark, then
# compile it. Needs GNU gettext; the compiled .mo is committed, so running the site
# and its tests does not.
messages: venv
	$(BIN)/python manage.py makemessages -l ml --no-location --ignore ".venv/*" \
		--ignore "var/*" --ignore "staticfiles/*" --ignore "artifacts/*" \
		--ignore "tests/*" --ignore "bench/*"
	msgfmt --check -o locale/ml/LC_MESSAGES/django.mo locale/ml/LC_MESSAGES/django.po

# Cuts a release (docs/releases.md): `make release VERSION=0.4.0` checks that this
# commit says it is VERSION everywhere (pyproject.toml, CHANGELOG.md with its Upgrading
# section, tournament/ops/releases.py with this code's migrations), runs make test, and
# tags it v$(VERSION). SKIP_TEST=1 rehearses the checks without the tests or the tag.
release: venv
	.ci/release $(VERSION)

clean:
	rm -rf $(VENV) var .hypothesis
