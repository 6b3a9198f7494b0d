"""The demo tournament of fixtures/ loads through the services and obeys their rules."""

import pytest

from tournament.demo import demo_load
from tournament.models import Membership, Team

pytestmark = pytest.mark.django_db


def test_demo_loads_48_teams_in_7_sections_once():
    tournament, users = demo_load()
    assert tournament.teams.count() == 48
    assert tournament.sections.count() == 7
    sizes = {s.name: s.teams.count() for s in tournament.sections.all()}
    assert max(sizes.values()) <= 24  # no section holds more than half (rules.md §5)
    assert sizes["International"] == 5
    # Illinois belongs to "Midwest & West", but Chicago's suburbs are placed by city.
    assert Team.objects.get(name="Niles Nine").section.name == "Chicago"
    assert Team.objects.get(name="Naperville Nalpathu").section.name == "Midwest & West"
    assert all(t.players.count() == 3 for t in tournament.teams.all())
    roles = set(Membership.objects.values_list("user__username", "role"))
    assert roles == {
        ("organizer", "organizer"),
        ("scorer", "scorer"),
        ("captain", "captain"),
    }
    assert {u["username"] for u in users} == {"organizer", "scorer", "captain"}
    again, _ = demo_load()
    assert again.pk == tournament.pk and again.teams.count() == 48


def test_the_demos_published_tournaments_count_for_the_ratings():
    """The demo is the site's own: its published tournaments are rated, its players
    the people of the others, with no suggested match for a site administrator."""
    from tournament.demo import FIXTURES
    from tournament.models import NamesakeSuggestion

    first, _ = demo_load(path=FIXTURES / "demo-knockout.json")
    second, _ = demo_load(path=FIXTURES / "demo-registration.json")
    assert first.rated and second.rated
    assert not NamesakeSuggestion.objects.exists()
