"""Two writers at the same moment: the tournament row lock makes the second wait, see
the first one's team, and get a rule error instead of a database error. Runs on both
passes: real connections to PostgreSQL, or a SQLite file with IMMEDIATE transactions."""

import threading

import pytest
from django.db import connection, connections

from tests.factories import SectionFactory, TournamentFactory
from tournament import services
from tournament.domain.errors import RuleError
from tournament.models import Team


def _race(target, count=2):
    barrier = threading.Barrier(count)
    results: list[object] = []

    def run(i):
        try:
            barrier.wait(timeout=10)
            results.append(target(i))
        except Exception as error:  # the outcome is what is tested
            results.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.mark.django_db(transaction=True)
def test_same_team_name_registered_twice_at_once_gives_one_team_and_one_refusal():
    assert "memory" not in str(connection.settings_dict["NAME"])  # real file locking
    tournament = TournamentFactory(slug="race")
    SectionFactory(tournament=tournament, name="Tri-State", states=["NJ"])

    def register(i):
        return services.team_register(
            tournament=tournament,
            name="Edison Aces",
            captain={
                "name": f"Captain {i}",
                "city": "Edison",
                "state": "NJ",
                "country": "USA",
            },
            players=[f"Player {i}a", f"Player {i}b"],
        )

    results = _race(register)
    teams = [r for r in results if isinstance(r, Team)]
    refusals = [r for r in results if isinstance(r, RuleError)]
    assert len(teams) == 1 and len(refusals) == 1, results
    assert refusals[0].code == "name_taken"
    assert Team.objects.filter(tournament=tournament).count() == 1
    assert Team.objects.get(tournament=tournament).players.count() == 3


@pytest.mark.django_db(transaction=True)
def test_two_sections_claiming_one_state_at_once_gives_one_owner():
    tournament = TournamentFactory(slug="race-sections")

    def claim(i):
        return services.section_create(
            tournament=tournament, name=f"East {i}", states=["NJ"]
        )

    results = _race(claim)
    refused = [r for r in results if isinstance(r, RuleError)]
    assert len(refused) == 1, results
    assert "NJ is already listed by section East" in refused[0].message
    owners = [s for s in tournament.sections.all() if "NJ" in s.states]
    assert len(owners) == 1
