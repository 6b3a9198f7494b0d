"""Copies of sheets kept for the next backup of their tournament (docs/backups.md):
each locked sheet's line of the archive as it was written, with its version, so
that a backup reuses the copy of every sheet still at that version instead of
reading it again. Kept by a task when a sheet is locked, and by each backup for the
sheets it had to read."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable

from django.db import connection, transaction
from django.db.models import TextField
from django.db.models.functions import Cast

from ..models import SheetCopy, Tournament
from .archive import Line, model_of, sheet_lines
from .binary import binary_rows


def kept_lines(tournament: Tournament, **where) -> list[Line]:
    """The lines of the sheets `where` selects: a kept copy where the sheet is still
    at its version, read afresh (and kept for next time) where it is not."""
    Match = model_of("scoring.match")
    current = dict(
        Match._base_manager.filter(**where).order_by().values_list("pk", "version")
    )
    copies = SheetCopy.objects.filter(tournament=tournament)
    if len(current) < 200:
        copies = copies.filter(sheet__in=list(current))
    # The counts and people of the copies come as text and are read as one JSON
    # array: thousands of small json.loads (a copy a sheet) cost more than the text.
    kept = [
        row
        for row in binary_rows(
            copies.values_list(
                "sheet",
                "version",
                "line",
                "sha256",
                Cast("counts", TextField()),
                Cast("people", TextField()),
            )
        )
        if current.get(row[0]) == row[1]
    ]
    read = json.loads("[" + ",".join(f"{row[4]},{row[5]}" for row in kept) + "]")
    lines: dict[int, Line] = {}
    for n, (sheet, version, packed, sha256, _, _) in enumerate(kept):
        counts, people = read[2 * n], read[2 * n + 1]
        lines[sheet] = Line(packed, sha256, counts, set(people), sheet, version)
    missing = [sheet for sheet in current if sheet not in lines]
    if missing:
        fresh = (
            sheet_lines(**where)
            if len(missing) == len(current)
            else sheet_lines(pk__in=missing)
        )
        _copies_store(tournament, fresh.values())
        lines.update(fresh)
    return [lines[sheet] for sheet in sorted(lines)]


def _copies_store(tournament: Tournament, lines: Iterable[Line]) -> None:
    # In the sheets' order: two writers that meet on several sheets (a task keeping
    # copies and a backup) then lock their rows in the same order, and one waits for
    # the other instead of the two deadlocking.
    lines = sorted(lines, key=lambda line: line.sheet)
    if not lines:
        return
    # An upsert: a task keeping a copy and a backup may meet on one sheet. A copy
    # that loses that race to an older version is only read again next time.
    SheetCopy.objects.bulk_create(
        [
            SheetCopy(
                tournament=tournament,
                sheet=line.sheet,
                version=line.version,
                line=line.packed,
                sha256=line.sha256,
                counts=line.counts,
                people=sorted(line.people),
            )
            for line in lines
        ],
        update_conflicts=True,
        unique_fields=["sheet"],
        update_fields=["tournament", "version", "line", "sha256", "counts", "people"],
    )


def sheet_copies_keep(*, match_ids: list[int]) -> int:
    """Keep a copy of each sheet as it is now, so that the next backup of its
    tournament reuses it (queued when a sheet is locked). Returns how many."""
    Match = model_of("scoring.match")
    kept = 0
    by_tournament: dict[int, list[int]] = defaultdict(list)
    for pk, tournament_id in Match._base_manager.filter(pk__in=match_ids).values_list(
        "pk", "tournament_id"
    ):
        by_tournament[tournament_id].append(pk)
    for tournament_id, sheets in by_tournament.items():
        with transaction.atomic():
            # The copies' foreign keys share-lock the tournament and the sheets when
            # the rows are inserted. Taken first, those locks wait for a step that
            # holds the tournament (a seeding's backup) before a copy is written,
            # rather than the two deadlocking over copies each wrote for the other.
            _share(Tournament, [tournament_id])
            _share(Match, sorted(sheets))
            tournament = Tournament.objects.get(pk=tournament_id)
            kept += len(kept_lines(tournament, pk__in=sheets))
    return kept


def _share(model, pks: list[int]) -> None:
    """Hold `FOR KEY SHARE` on these rows (in this order) until the transaction ends:
    what a foreign key to them takes when a row is inserted. SQLite needs none: it
    has one writer at a time."""
    if connection.vendor != "postgresql":
        return
    table = connection.ops.quote_name(model._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT 1 FROM {table} WHERE id = ANY(%s) ORDER BY id FOR KEY SHARE",  # noqa: S608 - our own table
            [pks],
        )
