"""Backups on a site of ten 500-team championships: what the automatic backups cost,
against today's whole-site backup of the same site, measured in the same run.

The championship of bench/league.py at its knockout stage (500 teams, 36,000 deals,
every sheet confirmed, a knockout of 24 seeded), on SQLite and on PostgreSQL. A fresh
process then makes the site one of ten such tournaments (nine imported from the
first one's archive, as an organizer imports one, each under its own slug; the tenth
with its draw taken away, as it is before its draw) and keeps, for each sheet, the
copy the `sheet_copy_keep` task keeps when a sheet is locked. It then measures:

- the baseline: `site.backup_write`, the whole site to a file, as every automatic
  backup was written before;
- the backup before a seeding: the whole first tournament, its league complete;
  and the same with no sheet copy kept (the first backup after an upgrade);
- the backup before a 500-team draw (teams, players, roles; no sheet yet);
- reopening a confirmed sheet with its automatic backup, and without it;
- restoring the first tournament in place, and importing its archive (`backup.import`)
  against its floor: reading the same file (inflated, its checksum checked, parsed)
  and writing the same rows by the same bulk path (COPY on PostgreSQL, one prepared
  INSERT on SQLite) with no check at all, their ids, references and values made
  ready beforehand, untimed; then the database's own reference check. An import
  cannot do less than read its file and write its rows: what it adds over this is
  the checks (every column of every row, every reference) and the new ids.

Each write runs in a transaction that is rolled back, so every repeat meets the same
site.

Usage: python -m bench backup [--teams 500] [--tournaments 10] [--repeat 3]
       [--vendors sqlite,postgresql]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from bench.core import Figure, Session, median_ms, print_ratios, run_module
from bench.league import ORGANIZER, SLUG

TINY = ["--teams", "32", "--tournaments", "3", "--repeat", "1"]
# What a draw made, and the play after it: taken away, children first.
DRAWN = [
    ("brackets.game", "knockout_match__bracket__tournament"),
    ("brackets.knockoutmatch", "bracket__tournament"),
    ("brackets.seed", "bracket__tournament"),
    ("brackets.bracket", "tournament"),
    ("scoring.sheetchange", "match__tournament"),
    ("scoring.penalty", "deal__match__tournament"),
    ("scoring.deal", "match__tournament"),
    ("scoring.matchtally", "match__tournament"),
    ("scoring.match", "tournament"),
    ("scoring.standingslot", "tournament"),
    ("scoring.bye", "tournament"),
    ("scoring.leagueround", "tournament"),
    ("scoring.leaguedraw", "tournament"),
]


def _site(tournaments: int) -> dict:
    """The site of `tournaments` tournaments; their ids by role."""
    from django.db import transaction

    from scoring.models import Match
    from tournament.backups import services
    from tournament.models import Tournament

    first = Tournament.objects.get(slug=SLUG)
    content = services.backup_content(
        services.backup_take(tournament=first, reason="bench archive")
    )
    started = time.perf_counter()
    for n in range(2, tournaments + 1):
        services.tournament_import(content=content, slug=f"{SLUG}-{n}")
    import_s = (time.perf_counter() - started) / max(1, tournaments - 1)
    undrawn = Tournament.objects.get(slug=f"{SLUG}-{tournaments}")
    with transaction.atomic():  # the last one as it was before its draw
        for label, path in DRAWN:
            services._raw_delete(label, **{path: undrawn.pk})
        Tournament.objects.filter(pk=undrawn.pk).update(status="registration")
    services.sheet_copies_keep(
        match_ids=list(Match.objects.values_list("pk", flat=True))
    )
    return {"first": first.pk, "undrawn": undrawn.pk, "import_s": import_s}


def _child(repeat: int, folder: str, tournaments: int) -> dict:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction

    from scoring.models import Match
    from scoring.sheets import services as sheets
    from tournament.backups import services, site
    from tournament.models import SheetCopy, Tournament

    settings.BACKUP_DIR = Path(folder)
    made = _site(tournaments)
    first = Tournament.objects.get(pk=made["first"])
    undrawn = Tournament.objects.get(pk=made["undrawn"])
    organizer = get_user_model().objects.get(username=ORGANIZER)
    match = Match.objects.filter(
        tournament=first, stage="league", status="confirmed"
    ).first()
    content = services.backup_content(
        services.backup_take(tournament=first, reason="bench")
    )

    def rolled_back(work):
        def run() -> None:
            with transaction.atomic():
                work()
                transaction.set_rollback(True)

        return run

    def tournament_backup(who):
        return rolled_back(
            lambda: services.backup_before_step(
                tournament=who, step="the bench", user=organizer
            )
        )

    def cold() -> None:
        SheetCopy.objects.filter(tournament=first).delete()
        services.backup_before_step(tournament=first, step="the bench")

    def reopen(automatic: bool):
        def work() -> None:
            settings.BACKUP_AUTOMATIC = automatic
            sheets.score_sheet_reopen(match_id=match.pk, user=organizer, reason="b")

        return rolled_back(work)

    def restore() -> None:
        services.backup_restore(tournament=first, content=content, trusted=True)

    def imported() -> None:
        services.tournament_import(content=content, slug="bench-imported")

    def import_floor_ms() -> float:
        """Reading the file and writing its rows unchecked (the figure's floor)."""
        from tournament.backups import archive, rows

        with transaction.atomic():
            started = time.perf_counter()
            held = archive.file_read(content)
            read = time.perf_counter() - started
            loader = services._Loader(held, fresh=True, validate=False)
            loader.plan(services._people(held, create=True), None)
            ready = []
            for label in archive.LOAD_ORDER:
                override = (
                    {"slug": "bench-floor"} if label == "tournament.tournament" else {}
                )
                made = loader.rows(label, **override)
                ready.append((made.model, made.fields, rows.records(made)))
            started = time.perf_counter()
            for model, fields, prepared in ready:
                rows.write(model, fields, prepared)
            services._check_constraints()
            written = time.perf_counter() - started
            transaction.set_rollback(True)
        return (read + written) * 1000

    def median_of(measure, times: int) -> float:
        import statistics

        measure()
        return statistics.median(measure() for _ in range(times))

    def count() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM scoring_deal")
            cursor.fetchone()

    target = Path(folder) / "site.json.gz"
    figures = {
        "vendor": connection.vendor,
        "count_ms": median_ms(count, repeat * 5),
        "site_ms": median_ms(lambda: site.backup_write(reason="b", path=target), 1),
        "seeding_ms": median_ms(tournament_backup(first), repeat * 3),
        "draw_ms": median_ms(tournament_backup(undrawn), repeat * 3),
        "reopen_plain_ms": median_ms(reopen(False), repeat * 5),
        "reopen_backup_ms": median_ms(reopen(True), repeat * 5),
        "cold_ms": median_ms(rolled_back(cold), repeat),
        "restore_ms": median_ms(rolled_back(restore), repeat),
        "import_ms": median_ms(rolled_back(imported), repeat),
        "import_floor_ms": median_of(import_floor_ms, repeat),
        "count_again_ms": median_ms(count, repeat * 5),
        "site_bytes": target.stat().st_size,
        "tournament_bytes": len(content),
        "tournaments": Tournament.objects.count(),
        "import_s": made["import_s"],
    }
    settings.BACKUP_AUTOMATIC = True
    return figures


def run(session: Session, argv: list[str]) -> list[Figure]:
    parser = argparse.ArgumentParser(prog="python -m bench backup")
    parser.add_argument("--teams", type=int, default=500)
    parser.add_argument("--tournaments", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--vendors", default="sqlite,postgresql")
    args = parser.parse_args(argv)
    print(
        f"bench: backups on a site of {args.tournaments} tournaments of {args.teams} "
        f"teams, median of {args.repeat}"
    )
    figures = []
    for vendor in session.vendors(args.vendors):
        with session.database(
            vendor, "backup", teams=args.teams, stage="knockout"
        ) as db:
            folder = session.folder / "backups"
            folder.mkdir(exist_ok=True)
            r = run_module(
                "bench.backup",
                db.url,
                "--child",
                str(args.repeat),
                str(folder),
                str(args.tournaments),
            )
        b = db.built
        print(
            f"  {db.where:<10} {r['tournaments']} tournaments of {b['teams']} teams "
            f"({b['deals']} deals each); a tournament's file "
            f"{r['tournament_bytes'] / 2**20:.1f} MB, the site's "
            f"{r['site_bytes'] / 2**20:.1f} MB; building it imported each copy in "
            f"{r['import_s']:.1f} s"
        )
        r["reopen_extra_ms"] = r["reopen_backup_ms"] - r["reopen_plain_ms"]
        print_ratios(
            r,
            (
                ("site_ms", "the whole site (the old automatic backup)"),
                ("seeding_ms", "backup before a seeding (sheet copies kept)"),
                ("cold_ms", "the same, no sheet copy kept yet"),
                ("draw_ms", "backup before a draw"),
                ("reopen_plain_ms", "reopen a sheet, no automatic backup"),
                ("reopen_backup_ms", "reopen a sheet, with its automatic backup"),
                ("restore_ms", "restore a tournament in place"),
                ("import_ms", "import a tournament's archive"),
                ("import_floor_ms", "its floor: read the file, write its rows"),
            ),
            width=46,
        )
        where = db.where
        figures += [
            Figure(
                "backup.seeding",
                "the backup before a seeding, on a site of "
                f"{r['tournaments']} tournaments",
                r["seeding_ms"],
                "ms",
                "the whole site's backup",
                r["site_ms"],
                where,
            ),
            Figure(
                "backup.draw",
                f"the backup before a draw of {b['teams']} teams",
                r["draw_ms"],
                "ms",
                "the whole site's backup",
                r["site_ms"],
                where,
            ),
            Figure(
                "backup.import",
                f"importing a {b['teams']}-team tournament file",
                r["import_ms"] / 1000,
                "s",
                "reading it and writing its rows unchecked",
                r["import_floor_ms"] / 1000,
                where,
            ),
            Figure(
                "backup.reopen",
                "what its backup adds to a reopening",
                r["reopen_extra_ms"],
                "ms",
                "the reopening without it",
                r["reopen_plain_ms"],
                where,
            ),
        ]
    return figures


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "--child":
        print(json.dumps(_child(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]))))
