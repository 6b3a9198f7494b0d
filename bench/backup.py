"""Backups of a 500-team championship: how long a backup, a check and a restore take,
and what the automatic backup adds to reopening a sheet.

The championship of bench/league.py at its knockout stage (500 teams, 36,000 deals,
every sheet confirmed, a knockout of 24 seeded), on SQLite and on PostgreSQL. A fresh
process then measures, in the same run:

- the baseline: a plain `SELECT count(*)` over the deals;
- the standings API, for scale;
- `backup_write` (the whole site to a gzip file), `backup_read` (the file checked);
- `backup_restore` (its safety backup, then the whole site replaced in one transaction);
- reopening a confirmed sheet with the automatic backup, and without it (rolled back).

Its figures have no goal yet: the backups' goals come with the per-tournament backups.

Usage: python -m bench backup [--teams 500] [--repeat 3] [--vendors sqlite,postgresql]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bench.core import Figure, Session, median_ms, print_ratios, run_module
from bench.league import ORGANIZER, SLUG

TINY = ["--teams", "32", "--repeat", "1"]


def _child(repeat: int, folder: str) -> dict:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.test import Client

    from scoring.models import Match
    from scoring.sheets import services
    from tournament import backups

    settings.BACKUP_DIR = Path(folder)
    organizer = get_user_model().objects.get(username=ORGANIZER)
    match = Match.objects.filter(
        tournament__slug=SLUG, stage="league", status="confirmed"
    ).first()
    client = Client(HTTP_HOST="127.0.0.1")
    target = Path(folder) / "site.json.gz"
    written: dict = {}

    def count() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM scoring_deal")
            cursor.fetchone()

    def standings() -> None:
        assert client.get(f"/api/v1/tournaments/{SLUG}/standings/").status_code == 200

    def write() -> None:
        written["info"] = backups.backup_write(reason="bench", path=target)

    def read() -> None:
        backups.backup_read(target)

    def restore() -> None:
        backups.backup_restore(target)

    def reopen(automatic: bool):
        def run() -> None:
            settings.BACKUP_AUTOMATIC = automatic
            with transaction.atomic():
                services.score_sheet_reopen(
                    match_id=match.pk, user=organizer, reason="bench"
                )
                transaction.set_rollback(True)

        return run

    count_ms = median_ms(count, repeat * 5)
    figures = {
        "vendor": connection.vendor,
        "count_ms": count_ms,
        "standings_ms": median_ms(standings, repeat),
        "write_ms": median_ms(write, repeat),
        "read_ms": median_ms(read, repeat),
        "restore_ms": median_ms(restore, repeat),
        "reopen_backup_ms": median_ms(reopen(True), repeat),
        "reopen_plain_ms": median_ms(reopen(False), repeat),
        "count_again_ms": median_ms(count, repeat * 5),
        "rows": written["info"].rows,
        "bytes": target.stat().st_size,
    }
    return figures


def run(session: Session, argv: list[str]) -> list[Figure]:
    parser = argparse.ArgumentParser(prog="python -m bench backup")
    parser.add_argument("--teams", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--vendors", default="sqlite,postgresql")
    args = parser.parse_args(argv)
    print(f"bench: backups of {args.teams} teams, median of {args.repeat}")
    for vendor in session.vendors(args.vendors):
        with session.database(
            vendor, "backup", teams=args.teams, stage="knockout"
        ) as db:
            folder = session.folder / "backups"
            folder.mkdir(exist_ok=True)
            r = run_module(
                "bench.backup", db.url, "--child", str(args.repeat), str(folder)
            )
        b = db.built
        print(
            f"  {db.where:<10} {b['teams']} teams, {b['deals']} deals, "
            f"{r['rows']} rows in the backup, file {r['bytes'] / 2**20:.1f} MB"
        )
        print_ratios(
            r,
            (
                ("standings_ms", "standings API (for scale)"),
                ("write_ms", "backup (write the whole site)"),
                ("read_ms", "read and check a backup"),
                ("restore_ms", "restore (safety backup, replace all)"),
                ("reopen_plain_ms", "reopen a sheet, no automatic backup"),
                ("reopen_backup_ms", "reopen a sheet, with its automatic backup"),
            ),
            width=44,
        )
    return []


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "--child":
        print(json.dumps(_child(int(sys.argv[2]), sys.argv[3])))
