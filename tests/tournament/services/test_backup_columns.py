"""A tournament's file is checked column by column before a row is written
(tournament/backups/rows.py): a bad value anywhere in a column refuses the whole
file, the reason names the row's model, its field and the rule it breaks, and
nothing changes. Checked on both databases, for an import and a checked restore."""

from __future__ import annotations

import gzip
import hashlib
import json
from datetime import UTC, datetime

import pytest
from django.apps import apps
from django.db import connection

from tests.brackets.knockout import final_league
from tournament.backups import archive, rows, services
from tournament.backups.archive import BackupRefused
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def content():
    tournament, _ = final_league(2, 3, qualifiers=4, slug="column-cup")
    backup = services.backup_take(tournament=tournament, reason="archive")
    return tournament, services.backup_content(backup)


def rewritten(content: bytes, label: str, change) -> bytes:
    """The file with `change(row, columns)` applied to the last row of `label` (a
    late row: a check that stops early would miss it), its checksum made again."""
    head, _, body = gzip.decompress(content).partition(b"\n")
    header = json.loads(head)
    lines = [json.loads(line) for line in body.split(b"\n") if line]
    holding = [line for line in lines if line["tables"].get(label, {}).get("rows")]
    part = holding[-1]["tables"][label]
    change(part["rows"][-1], part["columns"])
    texts = [archive.line_text(line) for line in lines]
    header["sha256"] = hashlib.sha256(
        "".join(archive.digest(text) + "\n" for text in texts).encode()
    ).hexdigest()
    return gzip.compress(b"\n".join([archive.line_text(header), *texts]) + b"\n")


def setting(name: str, value):
    def change(row: list, columns: list[str]) -> None:
        row[columns.index(name)] = value

    return change


BAD = {
    # (model, change): what the reason must say
    "a choice": (
        "scoring.deal",
        setting("trump", "roses"),
        r"scoring\.deal.*'trump'.*Value 'roses' is not a valid choice",
    ),
    "a range": (
        "scoring.deal",
        setting("taken", -3),
        r"scoring\.deal.*'taken'.*greater than or equal to 0",
    ),
    "a type": (
        # Held to its JSON type before the field reads it (a number field reads
        # "١" as 1, a text field a list as its text: tournament/backups/api_rules.py).
        "scoring.match",
        setting("total_a", "many"),
        r"scoring\.match \(id \d+\) is not valid here: total_a: a whole number is "
        "expected here",
    ),
    "a length": (
        "tournament.team",
        setting("name", "x" * 81),
        r"tournament\.team.*'name'.*at most 80 characters",
    ),
    "a required value": (
        "tournament.team",
        setting("captain_name", ""),
        r"tournament\.team.*'captain_name'.*cannot be blank",
    ),
    "null": (
        "scoring.deal",
        setting("made", None),
        r"scoring\.deal.*'made'.*must be either True or False",
    ),
    "a time": (
        "scoring.sheetchange",
        setting("at", "yesterday"),
        r"a time in scoring\.sheetchange is not a time: 'yesterday'",
    ),
    "a reference outside the file": (
        "scoring.deal",
        setting("match_id", 10**9),
        r"scoring\.deal refers to scoring\.match 1000000000, which the file does "
        "not hold",
    ),
    "a reference that is no id": (
        "scoring.deal",
        setting("match_id", [1]),
        r"scoring\.deal refers to scoring\.match \[1\]",
    ),
    "two fields of one row": (
        "scoring.deal",
        lambda row, columns: (
            setting("declarer", "C")(row, columns),
            setting("taken", -3)(row, columns),
        ),
        r"'declarer': \[\"Value 'C' is not a valid choice.\"\], 'taken': "
        r"\['Ensure this value is greater than or equal to 0.'\]",
    ),
    "a database constraint": (
        "scoring.deal",
        setting("value", 60),  # a whole number, but not a bid (28-56)
        r"its rows do not fit this site: .*scoring_deal_value_28_56",
    ),
}


def counts() -> dict[str, int]:
    return {
        label: apps.get_model(label)._base_manager.count()
        for label in archive.LOAD_ORDER
    }


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_value_in_a_column_refuses_the_file_naming_its_field(content, case):
    tournament, good = content
    label, change, said = BAD[case]
    bad = rewritten(good, label, change)
    before = counts()
    with pytest.raises(BackupRefused, match=said):
        services.tournament_import(content=bad, slug="column-copy")
    with pytest.raises(BackupRefused, match=said):
        services.backup_restore(tournament=tournament, content=bad)
    assert counts() == before
    assert not Tournament.objects.filter(slug="column-copy").exists()


def test_the_same_file_unchanged_is_imported_with_every_row(content):
    _, good = content
    before = counts()
    changed = rewritten(good, "scoring.deal", setting("bidder", "Ravi"))
    services.tournament_import(content=changed, slug="column-copy")
    after = counts()
    held = {
        label: count
        for label, count in archive.file_read(good).header["counts"].items()
        if label in archive.LOAD_ORDER
    }
    assert held["scoring.deal"] > 0
    assert {k: after[k] - before[k] for k in held} == held


def test_the_fast_paths_prepare_what_the_fields_prepare():
    """rows._prepared skips the field's own steps for whole numbers and aware times:
    it must send the database exactly what `get_db_prep_save` would."""
    moment = datetime(2026, 11, 26, 15, 30, 7, 123456, tzinfo=UTC)
    for label in archive.LOAD_ORDER:
        for field in apps.get_model(label)._meta.concrete_fields:
            kind = rows._kind(field)
            if kind in rows.WHOLE_NUMBER_FIELDS:
                values = [0, 7, 2**31 - 1, None]
            elif kind == "DateTimeField":
                values = [moment, None]
            else:
                continue
            own = [field.get_db_prep_save(v, connection=connection) for v in values]
            assert rows._prepared(field, values) == own, (label, field.name)


def test_an_id_past_its_column_is_refused_by_a_restore(content):
    """A restore keeps the file's ids: they are held to the id field's range."""
    tournament, good = content
    bad = rewritten(good, "scoring.deal", setting("id", 2**63))
    before = counts()
    with pytest.raises(
        BackupRefused, match=r"scoring\.deal.*'id'.*less than or equal to"
    ):
        services.backup_restore(tournament=tournament, content=bad)
    assert counts() == before
