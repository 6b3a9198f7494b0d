"""Test settings: the real settings, with a fast password hasher and no var/ secret
file.

DATABASE_URL and CELERY_BROKER_URL are honoured, so `make test` runs the same suite on
SQLite (eager Celery) and on PostgreSQL (a real worker on Redis).
"""

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "tests-only-not-a-secret")

from .settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
LOGGING = {"version": 1, "disable_existing_loggers": False}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, as in the embedded default: shared in-memory SQLite fails concurrent
    # writers at once ("table is locked") instead of waiting, unlike the real thing.
    # One file per process, so that two runs on one machine never share it.
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": str(VAR_DIR / f"test-db-{os.getpid()}.sqlite3")  # noqa: F405
    }
    # A test database is thrown away: no commit waits for the disk (the embedded
    # default keeps SQLite's own, FULL). Locking and transactions are as they are.
    DATABASES["default"]["OPTIONS"]["init_command"] = "PRAGMA synchronous=OFF"  # noqa: F405
else:
    # Threads of the live server and of the race tests open their own connections;
    # closing each at the end of its request lets the test database be dropped.
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405

# The suite (its browser tests above all) runs under the enforced policy, as
# production does.
CONTENT_SECURITY_POLICY_REPORT_ONLY = False

# The ratings' refresh after every confirmation, off but where a test turns it on (its
# own tests, tests/scoring/ratings/): a refresh reads a dozen tables, and on the
# PostgreSQL pass the Celery worker would run one for every sheet any test confirms,
# against the database the next test is emptying (a deadlock with its TRUNCATE), and
# queue the workbook builds that tests wait for behind them.
RATINGS_AUTOMATIC = False

# Automatic backups of the test database go to a folder of their own.
BACKUP_DIR = VAR_DIR / "test-backups" / str(os.getpid())  # noqa: F405

# pytest-xdist (`make test` runs the suite on both cores): each worker process has its
# own test database (pytest-django adds the worker's name, gw0, gw1, … to it), and on
# the PostgreSQL pass its own Celery queue and cache keys on the shared Redis, so that
# its Celery worker (tests/conftest.py) runs only its own tasks, on its own database.
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if XDIST_WORKER and CELERY_BROKER_URL:  # noqa: F405
    CELERY_TASK_DEFAULT_QUEUE = f"fiftysix-tests-{XDIST_WORKER}"
    if "KEY_PREFIX" in CACHES["default"]:  # noqa: F405
        CACHES["default"]["KEY_PREFIX"] += f"-tests-{XDIST_WORKER}"  # noqa: F405
