"""A web container never serves on a database that is not at its release's migrations
(docs/deploy.md, "Upgrade with compose"): without MIGRATE_ON_START, deploy/start-web
first runs `deploy/migrate --wait`, which says why it waits, migrates nothing, and
lets the web start the moment the migrations are there."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _env(folder: Path) -> dict[str, str]:
    inherited = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("DJANGO_", "DATABASE_", "CELERY_", "EMAIL_"))
        and name not in ("LOG_FORMAT", "CACHE_URL", "PYTEST_XDIST_WORKER")
    }
    return inherited | {
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
        "DJANGO_SETTINGS_MODULE": "tournament.config.settings",
        "DATABASE_URL": f"sqlite:///{folder / 'site.sqlite3'}",
        "FIFTYSIX_VAR_DIR": str(folder / "var"),
        "PYTHONUNBUFFERED": "1",
    }


def _waits_then_returns(waiter: subprocess.Popen, then, word: str) -> str:
    """The waiter's first line says `word`, it is still waiting after it; `then`
    makes the database right; the waiter returns 0 within seconds."""
    deadline = time.monotonic() + 60
    said = b""
    while word.encode() not in said:
        assert waiter.poll() is None, waiter.stderr.read().decode()
        assert time.monotonic() < deadline, said.decode()
        said += os.read(waiter.stderr.fileno(), 65536)
    time.sleep(3)
    assert waiter.poll() is None  # still waiting: nothing was migrated by it
    then()
    assert waiter.wait(timeout=60) == 0
    return said.decode()


def test_a_database_behind_is_waited_for_until_it_is_migrated(tmp_path):
    env = _env(tmp_path)
    waiter = subprocess.Popen(
        [str(ROOT / "deploy/migrate"), "--wait"],
        cwd=ROOT,
        env=env,
        stderr=subprocess.PIPE,
    )
    try:
        said = _waits_then_returns(
            waiter,
            lambda: subprocess.run(
                [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
                cwd=ROOT,
                env=env,
                check=True,
            ),
            "does not serve yet",
        )
    finally:
        waiter.kill()
    assert "lacks migrations this release needs (deploy/upgrade applies them)" in said
    assert not (tmp_path / "var" / "dumps").exists() or not any(
        (tmp_path / "var" / "dumps").iterdir()
    )


def test_a_database_a_newer_release_migrated_is_waited_for(tmp_path):
    env = _env(tmp_path)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    database = sqlite3.connect(tmp_path / "site.sqlite3")
    database.execute(
        "INSERT INTO django_migrations (app, name, applied) "
        "VALUES ('scoring', '9999_later', '2026-12-07')"
    )
    database.commit()
    waiter = subprocess.Popen(
        [str(ROOT / "deploy/migrate"), "--wait"],
        cwd=ROOT,
        env=env,
        stderr=subprocess.PIPE,
    )

    def rolled_back() -> None:
        database.execute("DELETE FROM django_migrations WHERE name = '9999_later'")
        database.commit()

    try:
        said = _waits_then_returns(waiter, rolled_back, "does not serve yet")
    finally:
        waiter.kill()
        database.close()
    assert "was migrated by a newer release" in said and "scoring.9999_later" in said
