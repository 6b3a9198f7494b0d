"""A dump of the site's database into DUMP_DIR (docs/deploy.md, "Dumps before
migrating"): deploy/migrate takes one before applying migrations; run it by hand
before anything risky (`python deploy/dump.py`).

- PostgreSQL: `pg_dump --format=custom` of the database of the settings in use, as
  `<reason>-<UTC time>.dump` (restore with `pg_restore`, docs/backups.md).
- SQLite: a consistent copy of the database file (SQLite's backup API), as
  `<reason>-<UTC time>.sqlite3`.

DUMP_DIR is the environment's, else `dumps/` beside the site's data (FIFTYSIX_VAR_DIR;
/var/lib/fiftysix/dumps in the image). Dumps hold password hashes and API tokens: the
folder is made owner-only (0700) and each file is written owner-only (0600). This
prunes nothing: deploy/nightly-dump, after each nightly dump (`--reason nightly`),
removes the old nightly and before-migrate dumps (docs/backups.md, "The nightly dump");
the others are removed by hand. Logs the file's path (a line of the site's log: JSON in
production); exits non-zero, leaving no partial file, when the dump fails (and leaves
none when it is stopped).
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
log = logging.getLogger("fiftysix.dump")


def _settings():
    if str(ROOT) not in sys.path:  # deploy/nightly-dump calls this every night
        sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.config.settings")
    import django

    django.setup()
    from django.conf import settings

    return settings


def dump_dir(settings=None) -> Path:
    """Where the dumps go: DUMP_DIR, else dumps/ in FIFTYSIX_VAR_DIR (the site's
    settings loaded, and its logging with them, when none are given)."""
    settings = settings or _settings()
    return Path(os.environ.get("DUMP_DIR") or Path(settings.VAR_DIR) / "dumps")


def _folder(settings) -> Path:
    folder = dump_dir(settings)
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o700)
    return folder


def _pg_dump(database: dict, target: Path) -> None:
    env = dict(os.environ)
    for name, key in (
        ("PGHOST", "HOST"),
        ("PGPORT", "PORT"),
        ("PGUSER", "USER"),
        ("PGPASSWORD", "PASSWORD"),
        ("PGDATABASE", "NAME"),
    ):
        if database.get(key):
            env[name] = str(database[key])
    if database.get("OPTIONS", {}).get("sslmode"):
        env["PGSSLMODE"] = database["OPTIONS"]["sslmode"]
    # pg_dump creates the file with the umask's mode: owner-only from the start.
    os.umask(0o077)
    # Its complaint is kept for the log's line (it would print it plain).
    subprocess.run(  # noqa: S603
        ["pg_dump", "--format=custom", "--no-password", f"--file={target}"],  # noqa: S607
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )


def _sqlite_copy(database: dict, target: Path) -> None:
    os.umask(0o077)
    source = sqlite3.connect(f"file:{database['NAME']}?mode=ro", uri=True)
    copy = sqlite3.connect(target)
    try:
        with copy:
            source.backup(copy)
    finally:
        copy.close()
        source.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reason", default="by-hand", help="The file name's start.")
    reason = re.sub(r"[^A-Za-z0-9_-]+", "-", parser.parse_args(argv).reason) or "dump"

    settings = _settings()
    database = settings.DATABASES["default"]
    folder = _folder(settings)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    postgres = "postgresql" in database["ENGINE"]
    if not postgres and "sqlite3" not in database["ENGINE"]:
        log.error("dump: no dump for %s", database["ENGINE"])
        return 1
    if not postgres and not Path(database["NAME"]).exists():
        log.info("dump: no SQLite database yet; nothing to dump")
        return 0
    target = folder / f"{reason}-{stamp}.{'dump' if postgres else 'sqlite3'}"
    partial = target.with_name(target.name + ".partial")
    try:
        (_pg_dump if postgres else _sqlite_copy)(database, partial)
        partial.rename(target)
    except (OSError, sqlite3.Error, subprocess.CalledProcessError) as error:
        partial.unlink(missing_ok=True)
        said = getattr(error, "stderr", None) or ""
        log.error("dump: failed, nothing was changed: %s %s", error, said.strip())
        return 1
    except BaseException:  # stopped (SIGTERM, ^C): pg_dump is killed, its file goes
        partial.unlink(missing_ok=True)
        raise
    log.info("dump: %s (%s bytes)", target, target.stat().st_size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
