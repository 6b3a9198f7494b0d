"""A tournament's file is held to the API's own rules (issue 51): the import took a
time zone of "../../etc/passwd", a finished tournament with no draw, a list as a
team's name and an object as a section's cities, all of which the API refuses. Each
is refused now, naming the table, the row, the column and the rule, and nothing is
written; and for every field the API reads, a value it refuses is refused by the
import too (tournament/backups/api_rules.py)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework import serializers

from tests.conftest import as_user
from tests.tournament.services.test_backup_columns import counts, rewritten, setting
from tournament.apis import CaptainSerializer, SectionInput, TeamInput, TournamentInput
from tournament.backups import services
from tournament.backups.archive import BackupRefused
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def content(tournament, sections, team):
    backup = services.backup_take(tournament=tournament, reason="archive")
    return services.backup_content(backup)


def imported(content: bytes, slug: str | None = "copy-cup"):
    return services.tournament_import(content=content, slug=slug)


HOLES = {
    "a time zone that is a path": (
        "tournament.tournament",
        setting("time_zone", "../../etc/passwd"),
        "time_zone: '../../etc/passwd' is not a time zone: give an IANA name",
    ),
    "finished with no draw": (
        "tournament.tournament",
        setting("status", "finished"),
        "status: 'finished' does not match the file's rows, which make it registration",
    ),
    "a list as a team's name": (
        "tournament.team",
        setting("name", ["Edison", "Aces"]),
        "name: text is expected here, not a list, object or number",
    ),
    "an object as a section's cities": (
        "tournament.section",
        setting("cities", {"Chicago": 1}),
        'cities: Expected a list of items but got type "dict".',
    ),
    "a number as a captain's city": (
        "tournament.team",
        setting("captain_city", 7),
        "captain_city: text is expected here",
    ),
    "true as a round count": (
        "tournament.tournament",
        setting("league_rounds", True),
        "league_rounds: a whole number is expected here",
    ),
    "a time in other digits": (
        "tournament.tournament",
        setting("created_at", "٢٠٢٦-٠١-٠١T00:00:00Z"),
        "created_at: a date or time written as the file writes one",
    ),
    "a rule set's team size": (
        "tournament.tournament",
        setting("players_per_team", 4),  # the international rules play with 3
        "players_per_team: the international rule set plays with 3 players",
    ),
}


@pytest.mark.parametrize("case", list(HOLES))
def test_what_the_api_refuses_the_import_refuses_naming_the_column(content, case):
    label, change, said = HOLES[case]
    bad = rewritten(content, label, change)
    before = counts()
    with pytest.raises(BackupRefused) as refused:
        imported(bad)
    assert f"a row of {label} (id " in str(refused.value)
    assert said in str(refused.value)
    assert counts() == before  # all or nothing
    assert not Tournament.objects.filter(slug="copy-cup").exists()
    assert imported(content).slug == "copy-cup"  # the file as written imports


def test_a_checked_restore_holds_the_same_rules(tournament, content):
    bad = rewritten(content, "tournament.tournament", setting("status", "knockout"))
    with pytest.raises(BackupRefused, match="which make it registration"):
        services.backup_restore(tournament=tournament, content=bad)
    tournament.refresh_from_db()
    assert tournament.status == "registration"


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Not imported: a row of tournament.tournament (id "),
        ("ml", "ഇമ്പോർട്ട് ചെയ്തില്ല: tournament.tournament-ന്റെ ഒരു വരി (id "),
    ],
)
def test_the_import_page_says_which_column_and_rule(
    content, organizer, language, words
):
    organizer.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(organizer)
    bad = rewritten(content, "tournament.tournament", setting("time_zone", "../x"))
    answer = client.post(
        "/import/", {"file": SimpleUploadedFile("cup.56.gz", bad), "slug": "copy"}
    )
    assert answer.status_code == 400
    page = answer.content.decode()
    assert words in page and "time_zone" in page and "../x" in page
    assert not Tournament.objects.filter(slug="copy").exists()


# The import and the API, field by field
# ----------------------------------------------------------------------------------


def _refused_values(field: serializers.Field) -> list:
    """Values the API refuses for `field`: a list where one value belongs, and past
    each of its limits."""
    values: list = [["x"]] if not isinstance(field, serializers.ListField) else []
    if getattr(field, "max_length", None) and not isinstance(
        field, serializers.ListField
    ):
        values.append("x" * (field.max_length + 1))
    if getattr(field, "max_value", None) is not None:
        values.append(field.max_value + 1)
    if getattr(field, "min_value", None) is not None:
        values.append(field.min_value - 1)
    if isinstance(field, serializers.ChoiceField):
        values.append("nonsense")
    if isinstance(field, serializers.DateField):
        values.append("2026-02-30")
    if isinstance(field, serializers.BooleanField):
        values.append("maybe")
    if isinstance(field, serializers.SlugField):
        values.append("not a slug!")
    if isinstance(field, serializers.ListField):
        values += [{"x": 1}, "x", ["x" * (field.child.max_length + 1)]]
    return values


def _cases():
    groups = [
        ("tournament.tournament", "", TournamentInput().fields),
        ("tournament.section", "", SectionInput().fields),
        ("tournament.team", "captain_", CaptainSerializer().fields),
        ("tournament.team", "", {"name": TeamInput().fields["name"]}),
        ("tournament.player", "", {"name": TeamInput().fields["players"].child}),
    ]
    for label, prefix, fields in groups:
        for name, field in fields.items():
            for value in _refused_values(field):
                yield pytest.param(
                    label, prefix + name, value, id=f"{label}.{prefix}{name}={value!r}"
                )


def _api_answer(api, label: str, column: str, value):
    """What the API answers the value in its own field (an organizer's request)."""
    base = "/api/v1/tournaments/spring-open"
    if label == "tournament.tournament" and column == "slug":
        return "slug", api.post(
            "/api/v1/tournaments/", {"name": "New", "slug": value}, "json"
        )
    if label == "tournament.tournament":
        return column, api.patch(f"{base}/", {column: value}, "json")
    if label == "tournament.section":
        body = {"name": "New section", column: value}
        return column, api.post(f"{base}/sections/", body, "json")
    captain = {"name": "Cap", "city": "Kochi", "country": "India"}
    team = {"name": "New team", "captain": captain, "players": ["A", "B"]}
    if label == "tournament.player":
        return "players", api.post(
            f"{base}/teams/", {**team, "players": [value]}, "json"
        )
    if column.startswith("captain_"):
        field = column.removeprefix("captain_")
        body = {**team, "captain": {**captain, field: value}}
        return "captain", api.post(f"{base}/teams/", body, "json")
    return column, api.post(f"{base}/teams/", {**team, column: value}, "json")


@pytest.mark.parametrize(("label", "column", "value"), list(_cases()))
def test_every_field_the_api_reads_is_held_to_its_rules_by_the_import(
    api, content, organizer, label, column, value
):
    organizer.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    named, answer = _api_answer(as_user(api, organizer), label, column, value)
    assert answer.status_code == 400, answer.json()
    assert named in answer.json()
    bad = rewritten(content, label, setting(column, value))
    before = counts()
    with pytest.raises(BackupRefused) as refused:
        imported(
            bad,
            slug=None if (label, column) == ("tournament.tournament", "slug") else "c",
        )
    assert label in str(refused.value) and column in str(refused.value)
    assert counts() == before


# Its people
# ----------------------------------------------------------------------------------


@pytest.fixture
def peopled(organizer, tournament, sections, team):
    backup = services.backup_take(tournament=tournament, reason="archive")
    return services.backup_content(backup)


def test_a_fullwidth_name_of_the_file_is_the_users_it_is_stored_as(peopled):
    """ｏｒｇ is stored org by Django: the file's person is org, not a new user."""
    users = get_user_model().objects.count()
    copy = imported(rewritten(peopled, "auth.user", setting("username", "ｏｒｇ")))
    assert copy.memberships.get().user.username == "org"
    assert get_user_model().objects.count() == users


@pytest.mark.parametrize(
    ("username", "said"),
    [
        ("ＯＲＧ", "differ only by letter case"),  # was made a second user, ORG
        ("оrg", "mixes alphabets (Cyrillic, Latin)"),  # a Cyrillic о
        ("org\u200b", "a character a username cannot have"),
    ],
)
def test_a_new_person_of_the_file_follows_the_username_rules(peopled, username, said):
    users = get_user_model().objects.count()
    with pytest.raises(BackupRefused, match=re.escape(said)):
        imported(rewritten(peopled, "auth.user", setting("username", username)))
    assert get_user_model().objects.count() == users
