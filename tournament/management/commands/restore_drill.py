"""`manage.py restore_drill` (`make restore-drill`): proves the PostgreSQL dumps can be
restored (docs/backups.md). It dumps the database of the settings in use with
`pg_dump -Fc`, restores the dump into a scratch database with `pg_restore`, compares
every table's row count and checksum, and drops the scratch database. The dump reads
an exported snapshot, and the checksums of the source are taken in that same
snapshot: the drill runs on a live site and compares exactly what was dumped."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

_TABLES = """
SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) FROM pg_tables
WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1
"""
# Each row's text, hashed, the hashes in order: the same rows give the same sum
# whatever their physical order.
_SUM = (
    "SELECT count(*), md5(coalesce(string_agg(md5(t::text), '' "
    "ORDER BY md5(t::text)), '')) FROM {table} t"
)


def _sums(cursor) -> dict[str, tuple[int, str]]:
    cursor.execute(_TABLES)
    tables = [row[0] for row in cursor.fetchall()]
    sums = {}
    for table in tables:
        cursor.execute(_SUM.format(table=table))
        sums[table] = tuple(cursor.fetchone())
    return sums


class Command(BaseCommand):
    help = (
        "Dump this site's PostgreSQL database (pg_dump -Fc), restore it into a "
        "scratch database and compare every table's row count and checksum."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--keep", type=Path, help="Keep the dump in this file (owner-only)."
        )

    def handle(self, *args, keep: Path | None = None, **options):
        if connection.vendor != "postgresql":
            raise CommandError(
                "The restore drill is for PostgreSQL (pg_dump, pg_restore). This site "
                "runs on SQLite: its database is one file; stop the site and copy "
                "it, or use `manage.py backup` (docs/backups.md)."
            )
        for tool in ("pg_dump", "pg_restore"):
            if shutil.which(tool) is None:
                raise CommandError(f"{tool} is not installed on this machine.")
        import psycopg

        params = connection.get_connection_params()
        name = connection.settings_dict["NAME"]
        env = {**os.environ}
        if params.get("password"):
            env["PGPASSWORD"] = str(params["password"])
        where = []
        for flag, key in (("-h", "host"), ("-p", "port"), ("-U", "user")):
            if params.get(key):
                where += [flag, str(params[key])]
        scratch = f"{name}_drill_{os.getpid()}"[:63]
        server = {
            k: params[k] for k in ("host", "port", "user", "password") if k in params
        }
        with (
            tempfile.TemporaryDirectory() as folder,
            psycopg.connect(dbname=name, **server) as source,
        ):
            dump = Path(folder) / "drill.dump"
            with source.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                cursor.execute("SELECT pg_export_snapshot()")
                snapshot = cursor.fetchone()[0]
                self._run(
                    [
                        "pg_dump",
                        "-Fc",
                        *where,
                        f"--snapshot={snapshot}",
                        "-f",
                        str(dump),
                        name,
                    ],
                    env,
                )
                dump.chmod(0o600)
                before = _sums(cursor)
            self.stdout.write(
                f"Dumped {name}: {len(before)} tables, {dump.stat().st_size} bytes."
            )
            with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{scratch}"')
                admin.execute(f'CREATE DATABASE "{scratch}"')
                try:
                    self._run(
                        [
                            "pg_restore",
                            *where,
                            "--no-owner",
                            "--exit-on-error",
                            "-d",
                            scratch,
                            str(dump),
                        ],
                        env,
                    )
                    with (
                        psycopg.connect(dbname=scratch, **server) as restored,
                        restored.cursor() as cursor,
                    ):
                        after = _sums(cursor)
                finally:
                    admin.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
            if keep is not None:
                shutil.copyfile(dump, keep)
                keep.chmod(0o600)
        differ = sorted(
            table
            for table in before.keys() | after.keys()
            if before.get(table) != after.get(table)
        )
        rows = sum(count for count, _ in before.values())
        if differ:
            for table in differ:
                self.stderr.write(
                    f"  {table}: dumped {before.get(table)}, "
                    f"restored {after.get(table)}"
                )
            raise CommandError(
                f"The restore drill failed: {len(differ)} tables differ after the "
                "restore."
            )
        self.stdout.write(
            self.style.SUCCESS(
                f"Restore drill passed: {len(before)} tables, {rows} rows, every "
                "count and checksum the same after pg_restore."
            )
        )

    def _run(self, command: list[str], env: dict[str, str]) -> None:
        done = subprocess.run(  # noqa: S603 - our own arguments, no shell
            command, env=env, capture_output=True, text=True
        )
        if done.returncode != 0:
            raise CommandError(f"{command[0]} failed: {done.stderr.strip()[:2000]}")
