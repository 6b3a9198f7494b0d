"""What `GET /api/v1/health/` checks (docs/deploy.md): the database and its
migrations (one query), the shared cache, the Celery broker, and whether a worker was
seen within the last minute. Each check answers `{ok, ms}`; nothing here writes to
the database or needs an account.

A worker marks itself seen in the shared cache before each task it runs, and Celery
beat sends it a heartbeat task every `WORKER_BEAT_SECONDS` (tournament/ops/schedule.py,
tournament/ops/tasks.py), so that every web instance reads the same mark. The mark
needs the beat as well as a worker: with no beat an idle worker is not seen. There is
no check of the beat of its own, since whatever the beat sends shows only once a
worker runs it, which is this mark; and a site with no beat should not say it is
whole, since nothing then sends the orphaned workbook jobs again or catches the
ratings up. Which of the two is missing, the beat or the worker, is told by their
services (docs/deploy.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import cache as once
from typing import Any

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

from .schedule import WORKER_BEAT_SECONDS  # noqa: F401 (the heartbeat)

WORKER_SEEN_KEY = "health:worker-seen"
WORKER_FRESH_SECONDS = 60
BROKER_TIMEOUT_SECONDS = 1.0


def worker_seen() -> None:
    """A worker says it is alive (its heartbeat and each task call this)."""
    cache.set(WORKER_SEEN_KEY, time.time(), timeout=WORKER_FRESH_SECONDS * 10)


@once
def migrations_on_disk() -> dict[tuple[str, str], frozenset[tuple[str, str]]]:
    """Every migration this code ships, each with the migrations it replaces (a
    squashed one), read once per process: the files do not change under a running
    server."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    return {
        key: frozenset(tuple(r) for r in migration.replaces)
        for key, migration in loader.disk_migrations.items()
    }


def migrations_ahead(applied: set[tuple[str, str]]) -> list[str]:
    """The applied migrations of this code's apps that it does not ship: a newer
    release migrated the database (an instance left running on older code during an
    upgrade, or code rolled back without its database: docs/deploy.md). Such an
    instance must not serve, since its writes could leave out what the newer schema
    keeps (health answers 503, and deploy/start-web will not start on it)."""
    shipped = migrations_on_disk()
    known = set(shipped) | {r for replaces in shipped.values() for r in replaces}
    apps = {app for app, _ in shipped}
    return sorted(f"{app}.{name}" for app, name in applied - known if app in apps)


def schema_state() -> dict[str, Any]:
    """Whether the database's migrations are this code's: `{"database": "matches" |
    "behind" | "ahead", "missing": [...], "ahead": [...]}` (`manage.py release`,
    deploy/start-web). Raises DatabaseError when the database does not answer."""
    recorder = MigrationRecorder(connection)
    applied = set(recorder.applied_migrations()) if recorder.has_table() else set()
    missing, ahead = migrations_missing(applied), migrations_ahead(applied)
    state = "ahead" if ahead else "behind" if missing else "matches"
    return {"database": state, "missing": missing, "ahead": ahead}


def migrations_missing(applied: set[tuple[str, str]]) -> list[str]:
    """The shipped migrations not applied: a squashed one counts as applied when
    everything it replaces is, and a replaced one when its squash is."""
    shipped = migrations_on_disk()
    done = set(applied)
    for key, replaces in shipped.items():
        if replaces and replaces <= done:
            done.add(key)
        if replaces and key in done:
            done |= replaces
    return sorted(f"{app}.{name}" for app, name in shipped.keys() - done)


def _timed(check: Callable[[], dict[str, Any] | None]) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        extra = check() or {}
        ok = extra.pop("ok", True)
    except Exception as error:  # a check that fails says so; health never raises
        ok, extra = False, {"error": type(error).__name__}
    ms = round((time.perf_counter() - started) * 1000, 2)
    return {"ok": bool(ok), "ms": ms, **extra}


def health_checks() -> tuple[bool, dict[str, dict[str, Any]]]:
    """(whether the site can serve: its database answers and is migrated, the
    checks). At most one query."""
    applied: set[tuple[str, str]] = set()

    def database() -> dict[str, Any] | None:
        # The one query: which migrations are applied (it proves the database
        # answers too). A database with no migrations table yet answers a second,
        # plain one.
        table = MigrationRecorder.Migration._meta.db_table
        try:
            with connection.cursor() as cursor:
                cursor.execute(f"SELECT app, name FROM {table}")  # noqa: S608
                applied.update(cursor.fetchall())
        except DatabaseError:
            if connection.in_atomic_block:
                raise
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
            return {"migrations_table": False}
        return None

    def migrations() -> dict[str, Any]:
        missing, ahead = migrations_missing(applied), migrations_ahead(applied)
        return {
            "ok": not missing and not ahead,
            **({"missing": missing[:5]} if missing else {}),
            **({"ahead": ahead[:5]} if ahead else {}),
        }

    checks = {"database": _timed(database)}
    checks["migrations"] = (
        _timed(migrations)
        if checks["database"]["ok"]
        else {"ok": False, "ms": 0.0, "error": "database unavailable"}
    )
    checks["cache"] = _timed(_cache)
    checks["broker"] = _timed(_broker)
    checks["worker"] = _timed(_worker)
    return checks["database"]["ok"] and checks["migrations"]["ok"], checks


def _cache() -> dict[str, Any]:
    probe = f"{time.time()}"
    cache.set("health:probe", probe, timeout=30)
    return {"ok": cache.get("health:probe") == probe}


def _broker() -> dict[str, Any] | None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"eager": True}
    with current_app.connection_for_write() as conn:
        # Tried twice, the second at once: a dead broker is said within a second or
        # two, not after kombu's default pause between tries.
        conn.ensure_connection(
            max_retries=1, interval_start=0, timeout=BROKER_TIMEOUT_SECONDS
        )
    return None


def _worker() -> dict[str, Any]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"eager": True}
    seen = cache.get(WORKER_SEEN_KEY)
    if seen is None:
        return {"ok": False, "seen_seconds_ago": None}
    ago = round(time.time() - float(seen), 1)
    return {"ok": ago <= WORKER_FRESH_SECONDS, "seen_seconds_ago": ago}
