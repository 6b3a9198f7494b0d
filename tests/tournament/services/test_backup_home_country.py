"""A tournament's home country travels with its backup (issue 52; docs/backups.md):
restored in place and imported on another site, a Kerala championship is still at
home in India, its sections still list regions as written, its teams keep their
captains' regions and sections."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tournament import services as tournament_services
from tournament.backups import archive, services
from tournament.backups.services import _tournament_delete_rows
from tournament.models import Backup, Section, Team, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def kerala():
    organizer = UserFactory(username="kerala-org")
    tournament = tournament_services.tournament_create(
        user=organizer, name="Kerala Championship", slug="kerala", home_country="India"
    )
    tournament_services.section_create(
        tournament=tournament, name="Thrissur", states=["Kerala-North"], cities=[]
    )
    for name, city, state, country in (
        ("Chalakudy Chargers", "Chalakudy", "kerala north", "India"),
        ("Edison Aces", "Edison", "NJ", "USA"),
    ):
        tournament_services.team_register(
            tournament=tournament,
            name=name,
            captain={
                "name": f"{name} Captain",
                "city": city,
                "state": state,
                "country": country,
            },
            players=["Two", "Three"],
        )
    return tournament, organizer


def _placed(tournament):
    return sorted(
        Team.objects.filter(tournament=tournament).values_list(
            "name", "captain_state", "section__name", "placement"
        )
    )


def test_the_file_carries_the_home_country(kerala):
    tournament, _organizer = kerala
    backup = services.backup_take(tournament=tournament, reason="test")
    (row,) = archive.file_read(services.backup_content(backup)).rows(
        "tournament.tournament"
    )
    assert row["home_country"] == "India"


def test_restored_and_imported_it_is_still_at_home_in_india(kerala):
    tournament, organizer = kerala
    placed = _placed(tournament)
    assert placed == [
        ("Chalakudy Chargers", "kerala north", "Thrissur", "state"),
        ("Edison Aces", "NJ", "International", "international"),
    ]
    backup = services.backup_take(tournament=tournament, reason="test")
    content = services.backup_content(backup)
    Section.objects.filter(name="Thrissur").update(states=["Malabar"])
    Tournament.objects.filter(pk=tournament.pk).update(home_country="USA")

    services.backup_restore(tournament=tournament, content=content, user=organizer)
    tournament.refresh_from_db()
    assert tournament.home_country == "India"
    assert Section.objects.get(name="Thrissur").states == ["Kerala-North"]
    assert _placed(tournament) == placed

    # Another site: imported as a tournament of its own, at home in India.
    _tournament_delete_rows(tournament)
    Backup.objects.filter(tournament=tournament).update(tournament=None)
    tournament.delete()
    imported = services.tournament_import(
        content=content, user=UserFactory(username="importer")
    )
    assert imported.home_country == "India"
    assert _placed(imported) == placed
