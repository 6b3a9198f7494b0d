"""A file's rows held to the API's own rules (docs/backups.md, "What a file may hold").

A tournament's file is data that anyone who may import one can write by hand. The
loader (services.py) holds each column to its model field's rules (rows.py) and the
rows to the database's constraints; but a model field reads a list as its text and
a JSON column takes anything, while the API refuses both. So here:

- every value is of the JSON type its column is written in (`json_type_refusal`):
  text for text, a whole number (not true or false) for a number, a time in ASCII;
- every value a client gives the API is read by the very serializer field the API
  reads it with (`api_refusal`): a tournament's settings (`TournamentInput`), a
  section's name, states and cities (`SectionInput`), a team's name and captain
  (`TeamInput`, `CaptainSerializer`), a player's name, and the tournament is held to
  the services' rules the API applies beside (a time zone of the tz database, the
  rule set's team sizes, a last day not before the first);
- the tournament's status is the one its rows make (`status_refusal`): a finished
  tournament has a drawn league and every knockout match decided
  (tournament/domain/setup.py, `status_made`).

Each refusal names the table, the row's id, the column and the rule; nothing is
written (the loader's transaction).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db.models import Field
from rest_framework import serializers

from ..domain.errors import RuleError, RuleErrors, Words, filled, marked
from ..domain.setup import status_made
from ..domain.zones import check_time_zone
from .archive import Archive, BackupRefused
from .rows import WHOLE_NUMBER_FIELDS

_TEXT = frozenset({"CharField", "TextField", "SlugField", "EmailField"})
_TIME = frozenset({"DateField", "DateTimeField"})


def _refused(label: str, row: Any, column: str, rule: str) -> BackupRefused:
    return BackupRefused(
        filled(
            marked(
                "a row of %(label)s (id %(row)s) is not valid here: %(column)s: "
                "%(rule)s"
            ),
            label=label,
            row=row,
            column=column,
            rule=rule,
        )
    )


def _json_type_rule(kind: str, value: Any) -> Words | None:
    """Why `value` cannot be in a column of this kind, or None."""
    if kind in _TEXT and not isinstance(value, str):
        return marked("text is expected here, not a list, object or number")
    if kind in WHOLE_NUMBER_FIELDS and (
        not isinstance(value, int) or isinstance(value, bool)
    ):
        return marked("a whole number is expected here, not text or true/false")
    if kind == "BooleanField" and not isinstance(value, bool):
        return marked("true or false is expected here")
    if kind == "FloatField" and (
        not isinstance(value, int | float) or isinstance(value, bool)
    ):
        return marked("a number is expected here")
    if kind in _TIME and not (isinstance(value, str) and value.isascii()):
        return marked("a date or time written as the file writes one")
    return None


def json_type_refusal(
    label: str, field: Field, ids: list, values: list
) -> BackupRefused | None:
    """The first value of a column that is not of its JSON type (None is left to
    the field's own rules: null or not)."""
    kind = field.get_internal_type()
    for row, value in zip(ids, values, strict=True):
        if value is not None and (rule := _json_type_rule(kind, value)):
            return _refused(label, row, field.attname, rule)
    return None


@cache
def _api_fields() -> dict[str, dict[str, serializers.Field]]:
    """For each table a client writes through the API, its columns and the
    serializer field the API reads each with. Imported here: the API's module
    imports the services, which import this package."""
    from ..apis import CaptainSerializer, SectionInput, TeamInput, TournamentInput

    team = TeamInput().fields
    return {
        # The tournament's and a section's input fields are named as their columns.
        "tournament.tournament": dict(TournamentInput().fields),
        "tournament.section": dict(SectionInput().fields),
        "tournament.team": {
            "name": team["name"],
            **{f"captain_{n}": f for n, f in CaptainSerializer().fields.items()},
        },
        "tournament.player": {"name": team["players"].child},
    }


def _said(detail: Any) -> str:
    """A DRF refusal's messages as one sentence."""
    if isinstance(detail, dict):
        return "; ".join(f"{k}: {_said(v)}" for k, v in detail.items())
    if isinstance(detail, list):
        return " ".join(_said(d) for d in detail)
    return str(detail)


def api_refusal(
    label: str, columns: dict[str, list], ids: list
) -> BackupRefused | None:
    """The first value of `label`'s rows (column names to values, as the file
    holds them) that the API would refuse, or None. The tournament's row is also
    held to the services' rules of its create (tournament/services.py)."""
    fields = _api_fields().get(label)
    if not fields:
        return None
    read: list[dict[str, Any]] = [{} for _ in ids]
    for column, field in fields.items():
        if column not in columns:
            continue
        for at, (row, value) in enumerate(zip(ids, columns[column], strict=True)):
            try:
                read[at][column] = field.run_validation(value)
            except serializers.ValidationError as error:
                return _refused(label, row, column, _said(error.detail))
    if label == "tournament.tournament":
        for row, values in zip(ids, read, strict=True):
            if refusal := _tournament_rules(label, row, values):
                return refusal
    return None


def _tournament_rules(label: str, row: Any, values: dict) -> BackupRefused | None:
    from ..services import _check_tournament_numbers  # the API's create checks them

    try:
        check_time_zone(values["time_zone"])
        _check_tournament_numbers(
            ruleset=values["ruleset"],
            players_per_team=values["players_per_team"],
            league_deals=values["league_deals"],
            starts_on=values["starts_on"],
            ends_on=values["ends_on"],
        )
    except RuleError as error:
        first = error.errors[0] if isinstance(error, RuleErrors) else error
        return _refused(label, row, first.field or "", first.words)
    return None


def status_refusal(archive: Archive) -> BackupRefused | None:
    """The tournament's status against what its rows make (`status_made`)."""
    (tournament,) = archive.rows("tournament.tournament")
    matches = archive.rows("brackets.knockoutmatch")
    made = status_made(
        drawn=bool(archive.rows("scoring.leaguedraw")),
        seeded=bool(archive.rows("brackets.bracket")),
        undecided=sum(1 for m in matches if not m.get("winner")),
    )
    if tournament.get("status") == made.value:
        return None
    return _refused(
        "tournament.tournament",
        tournament.get("id"),
        "status",
        filled(
            marked(
                "%(status)r does not match the file's rows, which make it %(made)s: "
                "a tournament is in registration until its league is drawn, in the "
                "league until its knockout is seeded, in the knockout until every "
                "knockout match is decided"
            ),
            status=tournament.get("status"),
            made=made.value,
        ),
    )
