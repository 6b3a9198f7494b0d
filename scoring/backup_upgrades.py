"""How a backup written before each of scoring's migrations since release 0.3.0 is
brought forward (tournament/backups/upgrades.py): the columns each added, with the
value it gave the sheets there were then, its data migration replayed on the file's
rows, and the contract tallies counted once the rows are loaded, by the writes' own
SQL, as the migration counted them."""

from __future__ import annotations

from collections import defaultdict

from tournament.backups.archive import FORMER_LABELS
from tournament.backups.upgrades import (
    Add,
    Loaded,
    Move,
    Replay,
    Tables,
    Written,
    register,
    upgrade,
)
from tournament.models import Tournament
from tournament.persons.signals import ratings_stale

from .domain.rules import MatchStatus
from .domain.statistics import sheet_tally
from .models import Match
from .sheets.tallies import tallies_store

MATCH, DEAL, PENALTY = "scoring.match", "scoring.deal", "scoring.penalty"


def _deal_sheets(tables: Tables) -> dict[int, int]:
    """Each deal's sheet."""
    return dict(
        zip(tables.values(DEAL, "id"), tables.values(DEAL, "match_id"), strict=True)
    )


def _tallies_count(tables: Tables) -> None:
    """0011's data migration, on the file's rows: a sheet with deals or penalties
    gets its run pieces and penalties by kind (statistics.sheet_tally, the writes'
    own rule); one never written keeps []."""
    deals: dict[int, list] = defaultdict(list)
    for sheet, number, declarer, made in zip(
        tables.values(DEAL, "match_id"),
        tables.values(DEAL, "number"),
        tables.values(DEAL, "declarer"),
        tables.values(DEAL, "made"),
        strict=True,
    ):
        deals[sheet].append((number, declarer, bool(made)))
    sheet_of = _deal_sheets(tables)
    penalties: dict[int, list] = defaultdict(list)
    for deal, offender, kind in zip(
        tables.values(PENALTY, "deal_id"),
        tables.values(PENALTY, "offender"),
        tables.values(PENALTY, "kind"),
        strict=True,
    ):
        penalties[sheet_of.get(deal)].append((offender, kind))
    tables.values_set(
        MATCH,
        "tally",
        [
            sheet_tally(deals[pk], penalties[pk])
            if pk in deals or pk in penalties
            else []
            for pk in tables.values(MATCH, "id")
        ],
    )


def _tally_rows(written: Written) -> None:
    """0011's contracts by side and bidder (`MatchTally`), counted from the loaded
    deals by the SQL every write counts them with."""
    tallies_store(list(written.ids.get(MATCH, [])))


def _editions_set(tables: Tables) -> None:
    """0014: every sheet there was got edition 1; then those without a penalty got
    2 (scored by no penalty rule at all). Literal values: the edition a sheet of
    then is scored by, whatever edition is current now."""
    sheet_of = _deal_sheets(tables)
    penalised = {sheet_of.get(deal) for deal in tables.values(PENALTY, "deal_id")}
    tables.values_set(
        MATCH,
        "rules_edition",
        [1 if pk in penalised else 2 for pk in tables.values(MATCH, "id")],
    )


def _ratings_wanted(written: Written) -> None:
    """What the first `migrate` after 0012 did (ratings/receivers.py, catch_up): the
    matches played before were rated. A whole site's restore of an earlier release's
    file asks a rebuild, as a restore of a tournament does (services.py)."""
    if written.site and Match.objects.filter(status=MatchStatus.CONFIRMED).exists():
        ratings_stale.send(sender=Tournament)


register(
    upgrade(
        "scoring",
        "0010_export_beat",
        why="a workbook's build: in no backup (rebuilt on request)",
    ),
    upgrade(
        "scoring",
        "0011_match_tallies",
        Add(MATCH, "tally", value=[]),
        Replay(_tallies_count),
        Loaded(_tally_rows),
    ),
    upgrade("scoring", "0012_ratings", Loaded(_ratings_wanted)),
    upgrade(
        "scoring",
        "0013_rebuild_wanted",
        why="the ratings' rebuild asked for: a table of the site's, made empty",
    ),
    upgrade(
        "scoring",
        "0014_rules_edition",
        Add(MATCH, "rules_edition", value=1),
        Replay(_editions_set),
        # The penalty kinds it allows and the points it holds them to only widen
        # what the sheets of then held.
    ),
    upgrade(
        "scoring",
        "0015_rebuild_queue",
        why="the ratings' rebuild queued: a table of the site's, made empty",
    ),
    upgrade(
        "scoring",
        "0016_knockout_table_series",
        why="constraints: a knockout table holds one open sheet at a time; the one "
        "they replace held every table to one sheet a round, which they allow",
    ),
    upgrade(
        "scoring",
        "0017_league_models_from_tournament",
        # The league's draws, rounds and byes and the desk's announcements: the
        # same tables and rows, under scoring's labels (tournament 0014 with it).
        *(Move(old, new) for old, new in FORMER_LABELS.items()),
    ),
)
