"""Backups written by an earlier release restore on this one (docs/backups.md, "Across
releases"; tournament/backups/upgrades.py).

- Every migration since the oldest release brought forward has its upgrade, and the
  upgrades make today's columns from the columns of every past state, as Django's
  migration graph builds that state (so a migration that changes a backed-up table's
  columns without an upgrade fails here).
- Real files of release 0.3.0 (tests/fixtures/backups/, made by 0.3.0's own code)
  restore: the tournament's by `manage.py restore --tournament`, the whole site's by
  `manage.py restore`, the sheets' backup over it; each with the totals, standings and
  knockout 0.3.0 showed, and with what the migrations gave the rows there were then
  (edition 1 for a sheet with penalties, the tallies counted, the people found).
- A file of a newer release, of one before the oldest, or with a column no upgrade
  accounts for is refused, saying who wrote it and what this site runs; nothing
  changes.
- A migrate ends the sheets' copies, so no backup taken after an upgrade holds a line
  of the release before.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from io import StringIO
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations import Migration
from django.db.migrations.loader import MigrationLoader

from brackets.models import KnockoutMatch
from scoring.league.selectors import standings_get
from scoring.models import Match, MatchTally, SheetChange
from scoring.sheets.tallies import tallies_store
from tests.factories import UserFactory
from tournament.backups import archive, selectors, services, site, upgrades
from tournament.backups.archive import BackupRefused
from tournament.models import Player, Seat, SheetCopy, Tournament
from tournament.receivers import sheet_copies_after_migrate

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "backups"
TOURNAMENT_FILE = FIXTURES / "tournament-0.3.0.56.gz"
SHEETS_FILE = FIXTURES / "sheets-0.3.0.56.gz"
SITE_FILE = FIXTURES / "site-0.3.0.json.gz"
RECORDED = json.loads((FIXTURES / "recorded-0.3.0.json").read_text())
SLUG = "release-cup"


@pytest.fixture(autouse=True)
def backup_dir(settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "backups"
    return settings.BACKUP_DIR


# The registry against the migration graph
# ----------------------------------------------------------------------------------


def _since_oldest() -> list[upgrades.Node]:
    """Every migration of the backed-up apps since the oldest release brought
    forward, in the order they run."""
    done = set(upgrades.applied(upgrades.RELEASES[upgrades.OLDEST]))
    leaves = {
        app: max(n for a, n in upgrades.graph().leaf_nodes() if a == app)
        for app in archive.APPS
    }
    return [node for node in upgrades.applied(leaves) if node not in done]


def test_every_migration_since_the_oldest_release_has_its_upgrade():
    since = _since_oldest()
    known = upgrades.registry()
    missing = [f"{a}.{n}" for a, n in since if (a, n) not in known]
    assert not missing, (
        f"no upgrade of backups for {missing}: list each in its app's "
        "backup_upgrades.py (tournament/backups/upgrades.py says how)"
    )
    assert sorted(known) == sorted(since)  # none of a migration that is not there
    for release, state in upgrades.RELEASES.items():
        assert all(node in upgrades.graph().nodes for node in state.items()), release


def _past_states() -> list[tuple[str, dict[str, str]]]:
    """The state of the oldest release, and each state a site went through since
    (one migration more each): (its name, its newest migration by app)."""
    oldest = upgrades.RELEASES[upgrades.OLDEST]
    done = upgrades.applied(oldest)
    states = [(upgrades.OLDEST, dict(oldest))]
    for node in _since_oldest()[:-1]:
        done = [*done, node]
        newest: dict[str, str] = {}
        for app, name in done:
            newest[app] = max(name, newest.get(app, ""))
        states.append((f"{node[0]}.{node[1]}", newest))
    return states


def _columns(model) -> list[str]:
    """A model's columns as the upgrades name them: each concrete field's attname,
    and the many-to-many fields a whole site's backup writes."""
    names = [f.attname for f in model._meta.concrete_fields]
    if model._meta.label_lower in site.NATURAL or model._meta.many_to_many:
        names += [f.name for f in model._meta.local_many_to_many]
    return names


BACKED_UP = sorted(
    {*archive.LOAD_ORDER, *(m._meta.label_lower for m in site.backup_models())}
)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "recorded", [s for _, s in _past_states()], ids=[n for n, _ in _past_states()]
)
def test_each_past_state_is_brought_to_todays_columns(recorded):
    """The columns each backed-up model had at a past state (Django's own project
    state at those migrations), carried through the upgrades, are today's."""
    state = upgrades.file_state({"migrations": recorded})
    assert state.refusal is None and state.upgrades
    past = MigrationLoader(None, ignore_no_migrations=True).project_state(
        nodes=list(recorded.items())
    )
    tables = {}
    for label in BACKED_UP:
        app, name = label.split(".")
        if (app, name) in past.models:
            tables[label] = (_columns(past.apps.get_model(app, name)), [])

    upgrades.tables_bring_forward(
        state, tables, lambda label: _columns(apps.get_model(label))
    )
    for label, (columns, _) in tables.items():
        today = _columns(apps.get_model(label))
        missing, extra = (
            sorted(set(today) - set(columns)),
            sorted(set(columns) - set(today)),
        )
        assert not missing and not extra and len(columns) == len(today), (
            f"{label}, brought forward from {recorded}, lacks {missing} and has "
            f"{extra} more than today: an upgrade misses a step (Add, Drop, Rename)"
        )


def test_the_files_of_0_3_0_are_at_its_recorded_state():
    for path in (TOURNAMENT_FILE, SHEETS_FILE):
        assert (
            selectors.header_of(path.read_bytes())["migrations"]
            == (upgrades.RELEASES["0.3.0"])
        )
    header = json.loads(gzip.decompress(SITE_FILE.read_bytes()))
    assert header["migrations"] == upgrades.RELEASES["0.3.0"]


# Real files of release 0.3.0
# ----------------------------------------------------------------------------------


def _sheets(tournament: Tournament) -> dict[tuple, dict]:
    """Each sheet as 0.3.0 recorded it, by stage, round and table."""
    return {
        (m.stage, m.round, m.table): {
            "team_a": m.team_a.name,
            "team_b": m.team_b.name,
            "total_a": m.total_a,
            "total_b": m.total_b,
            "winner": m.winner,
            "status": m.status,
        }
        for m in Match.objects.filter(tournament=tournament).select_related(
            "team_a", "team_b"
        )
    }


RECORDED_SHEETS = {
    (s["stage"], s["round"], s["table"]): {
        k: s[k] for k in ("team_a", "team_b", "total_a", "total_b", "winner", "status")
    }
    for s in RECORDED["sheets"].values()
}


def _standings(tournament: Tournament) -> list[dict]:
    return [
        {
            "place": row.standing.place,
            "rank": row.standing.rank,
            "team": row.team.name,
            "played": row.standing.played,
            "won": row.standing.won,
            "tied": row.standing.tied,
            "lost": row.standing.lost,
            "r1": row.standing.r1,
            "r2": str(row.standing.r2),
            "r3": str(row.standing.r3),
            "r4": str(row.standing.r4),
        }
        for row in standings_get(tournament=tournament).rows
    ]


def _knockout(tournament: Tournament) -> list[dict]:
    return [
        {
            "number": k.number,
            "kind": k.kind,
            "winner": k.winner,
            "team_a": k.team_a.name,
            "team_b": k.team_b.name,
        }
        for k in KnockoutMatch.objects.filter(bracket__tournament=tournament)
        .select_related("team_a", "team_b")
        .order_by("number")
    ]


def as_0_3_0_showed_it(tournament: Tournament) -> None:
    """The totals, standings and knockout are those 0.3.0 showed, and each sheet has
    what the migrations since gave the sheets there were: edition 1 where it held a
    penalty (so none of its results changes), 2 elsewhere; its tallies counted."""
    tournament.refresh_from_db()
    assert _sheets(tournament) == RECORDED_SHEETS
    assert _standings(tournament) == RECORDED["standings"]
    assert _knockout(tournament) == RECORDED["knockout"]
    assert (tournament.status, tournament.home_country, tournament.time_zone) == (
        "finished",
        "USA",
        settings.TIME_ZONE,
    )
    penalised = {
        (s["stage"], s["round"], s["table"]): s["penalties"] > 0
        for s in RECORDED["sheets"].values()
    }
    matches = list(Match.objects.filter(tournament=tournament))
    assert {(m.stage, m.round, m.table): m.rules_edition for m in matches} == {
        key: 1 if held else 2 for key, held in penalised.items()
    }
    assert all(m.tally for m in matches)  # every sheet was played
    counted = sorted(
        MatchTally.objects.filter(match__tournament=tournament).values_list(
            "match", "side", "bidder", "declared", "made", "value_sum"
        )
    )
    assert counted
    tallies_store([m.pk for m in matches])  # counted again by every write's SQL
    assert counted == sorted(
        MatchTally.objects.filter(match__tournament=tournament).values_list(
            "match", "side", "bidder", "declared", "made", "value_sum"
        )
    )
    assert Seat.objects.filter(team__tournament=tournament).count() == (
        Player.objects.filter(team__tournament=tournament).count()
    )


@pytest.mark.django_db
def test_the_tournament_file_of_0_3_0_imports_and_restores_by_the_command():
    imported = services.tournament_import(
        content=TOURNAMENT_FILE.read_bytes(), user=UserFactory(username="importer")
    )
    assert imported.file_state.older and imported.file_state.written_by == "0.3.0"
    assert not imported.rated  # an import starts unrated, whatever the file says
    as_0_3_0_showed_it(imported)

    Match.objects.filter(tournament=imported).update(total_a=0, total_b=0)
    out = StringIO()
    call_command("restore", TOURNAMENT_FILE, tournament=SLUG, yes=True, stdout=out)
    said = out.getvalue()
    assert "Written by 0.3.0: it will be brought up to this release" in said
    assert f"({archive.release()})" in said
    assert "Restored tournament of release-cup" in said
    as_0_3_0_showed_it(imported)


@pytest.mark.django_db
def test_the_whole_site_of_0_3_0_restores_and_then_its_sheets_backup():
    out = StringIO()
    call_command("restore", SITE_FILE, yes=True, stdout=out)
    assert (
        f"Written by 0.3.0: brought up to this release ({archive.release()})."
        in out.getvalue()
    )
    tournament = Tournament.objects.get(slug=SLUG)
    as_0_3_0_showed_it(tournament)
    # 0012 counted every tournament published as rated; its people were found.
    assert tournament.published and tournament.rated
    assert Seat.objects.count() == Player.objects.count() == 12

    sheets = json.loads(gzip.decompress(SHEETS_FILE.read_bytes()).partition(b"\n")[0])
    (sheet,) = sheets["sheets"]
    version = Match.objects.get(pk=sheet).version
    call_command("restore", SHEETS_FILE, tournament=SLUG, yes=True, stdout=StringIO())
    restored = Match.objects.get(pk=sheet)
    assert restored.version > version
    assert SheetChange.objects.filter(match=restored, action="restore").exists()
    assert restored.rules_edition == 2 and restored.tally
    assert MatchTally.objects.filter(match=restored).exists()
    as_0_3_0_showed_it(tournament)


# Files this site cannot bring forward
# ----------------------------------------------------------------------------------


def rewritten(content: bytes, *, header=None, rows=None) -> bytes:
    """A tournament's file with `header(header)` and `rows(tables)` applied to each
    line, its checksum made again."""
    head, _, body = gzip.decompress(content).partition(b"\n")
    first = json.loads(head)
    lines = [json.loads(line) for line in body.split(b"\n") if line]
    if header:
        header(first)
    for line in lines:
        if rows:
            rows(line["tables"])
    texts = [archive.line_text(line) for line in lines]
    first["sha256"] = hashlib.sha256(
        "".join(archive.digest(text) + "\n" for text in texts).encode()
    ).hexdigest()
    return gzip.compress(b"\n".join([archive.line_text(first), *texts]) + b"\n")


def _newer(header: dict) -> None:
    header["migrations"]["scoring"] = "0099_of_a_later_release"
    header["release"] = "9.9.0"


def _too_old(header: dict) -> None:
    header["migrations"]["scoring"] = "0005_idempotency_key"


def _with_colour(tables: dict) -> None:
    if part := tables.get("tournament.tournament"):
        part["columns"].append("colour")
        for row in part["rows"]:
            row.append("green")


def _without_published(tables: dict) -> None:
    if part := tables.get("tournament.tournament"):
        at = part["columns"].index("published")
        del part["columns"][at]
        for row in part["rows"]:
            del row[at]


REFUSED = {
    "a newer release": (
        {"header": _newer},
        r"written by 9\.9\.0, and this site runs .*: the file's migrations "
        r"scoring\.0099_of_a_later_release are not this site's",
    ),
    "before 0.3.0": (
        {"header": _too_old},
        r"written by a release before 0\.3\.0, at migrations older than release "
        r"0\.3\.0's",
    ),
    "a column no upgrade knows": (
        {"rows": _with_colour},
        r"the columns of tournament\.tournament, brought forward from 0\.3\.0, are "
        r"not this site's .*: no upgrade accounts for colour\.",
    ),
    "a column an upgrade reads, missing": (
        {"rows": _without_published},
        r"the columns of tournament\.tournament, brought forward from 0\.3\.0",
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", REFUSED, ids=list(REFUSED))
def test_a_file_this_site_cannot_bring_forward_is_refused(case, tmp_path):
    change, said = REFUSED[case]
    content = rewritten(TOURNAMENT_FILE.read_bytes(), **change)
    with pytest.raises(BackupRefused, match=said):
        services.tournament_import(content=content, user=UserFactory())
    assert not Tournament.objects.exists()

    imported = services.tournament_import(
        content=TOURNAMENT_FILE.read_bytes(), user=UserFactory(username="importer")
    )
    before = _sheets(imported)
    path = tmp_path / "file.56.gz"
    path.write_bytes(content)
    with pytest.raises(CommandError, match=said):
        call_command("restore", path, tournament=SLUG, yes=True, stdout=StringIO())
    assert _sheets(imported) == before


@pytest.mark.django_db
def test_a_whole_site_of_a_newer_release_is_refused_before_anything_changes(
    tmp_path,
):
    document = json.loads(gzip.decompress(SITE_FILE.read_bytes()))
    _newer(document)
    path = tmp_path / "newer.json.gz"
    path.write_bytes(gzip.compress(json.dumps(document).encode()))
    with pytest.raises(CommandError, match=r"is not a backup this site reads: it was"):
        call_command("restore", path, yes=True, stdout=StringIO())
    assert not Tournament.objects.exists()


# A backup taken after an upgrade
# ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_migrate_ends_the_sheet_copies_of_the_code_before():
    """A sheet's copy is its line at the columns of the code that kept it: one kept
    by 0.3.0, put into a backup taken after the upgrade, made that backup one no
    restore takes. A migrate ends them; the next backup reads the sheets again."""
    call_command("restore", SITE_FILE, yes=True, stdout=StringIO())
    tournament = Tournament.objects.get(slug=SLUG)
    body = gzip.decompress(TOURNAMENT_FILE.read_bytes()).split(b"\n")[1:]
    for text in body:
        line = json.loads(text) if text else {}
        if "sheet" in line:  # the copy 0.3.0 kept of this sheet at its version
            SheetCopy.objects.create(
                tournament=tournament,
                sheet=line["sheet"],
                version=line["version"],
                line=archive.member(text + b"\n"),
                sha256=archive.digest(text),
                counts={label: len(p["rows"]) for label, p in line["tables"].items()},
                people=[],
            )
    stale = services.backup_take(tournament=tournament, reason="after the upgrade")
    with pytest.raises(BackupRefused, match=r"columns of scoring\.match"):
        services.backup_restore(
            tournament=tournament, content=services.backup_content(stale)
        )

    sheet_copies_after_migrate(
        apps.get_app_config("tournament"),
        using=connection.alias,
        plan=[(Migration("0099_of_a_later_release", "scoring"), False)],
        apps=apps,
    )
    assert not SheetCopy.objects.exists()
    fresh = services.backup_take(tournament=tournament, reason="after the upgrade")
    services.backup_restore(
        tournament=tournament, content=services.backup_content(fresh)
    )
    as_0_3_0_showed_it(tournament)
