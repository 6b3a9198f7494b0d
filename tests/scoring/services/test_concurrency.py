"""Two scorers writing one sheet at the same moment, on real connections.

Each thread is its own client with its own database connection. Both read version N
and send a write with it; the match row lock makes the second wait for the first, see
version N+1 and get 409. Nothing is lost or doubled. Runs on both passes: PostgreSQL
(`SELECT ... FOR UPDATE`) and a SQLite file (IMMEDIATE transactions)."""

import threading

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from scoring.models import Deal, Match, Penalty, SheetChange
from scoring.sheets import services
from tests.factories import SectionFactory, TeamFactory, TournamentFactory, member
from tests.scoring.conftest import deal_body
from tournament.domain.types import Role


def _race(requests):
    barrier = threading.Barrier(len(requests))
    results: list[object] = [None] * len(requests)

    def run(i, user, path, body):
        client = APIClient()
        client.force_authenticate(user)
        try:
            barrier.wait(timeout=10)
            results[i] = client.post(path, body, "json")
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=run, args=(i, *request))
        for i, request in enumerate(requests)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.fixture
def sheet(transactional_db):
    tournament = TournamentFactory(slug="race-sheet")
    a = TeamFactory(section=SectionFactory(tournament=tournament, states=["NJ"]))
    b = TeamFactory(section=SectionFactory(tournament=tournament, states=["TX"]))
    organizer = member(tournament, Role.ORGANIZER)
    match = services.match_create(
        tournament=tournament,
        user=organizer,
        team_a=a.pk,
        team_b=b.pk,
        round=1,
        table=1,
    )
    scorers = [member(tournament, Role.SCORER, f"scorer-{i}") for i in range(2)]
    return match, scorers


@pytest.mark.parametrize("same_number", [True, False], ids=["same-deal", "two-deals"])
def test_two_scorers_at_once_one_wins_one_gets_409(sheet, same_number):
    assert "memory" not in str(connection.settings_dict["NAME"])  # real file locking
    match, scorers = sheet
    path = f"/api/v1/matches/{match.pk}/deals/"
    for round_ in range(5):  # five races in a row on the same sheet
        version = Match.objects.get(pk=match.pk).version
        numbers = [2 * round_ + 1, 2 * round_ + 1 if same_number else 2 * round_ + 2]
        results = _race(
            [
                (scorers[i], path, {**deal_body(n, taken=40 + i), "version": version})
                for i, n in enumerate(numbers)
            ]
        )
        codes = sorted(r.status_code for r in results)
        assert codes == [201, 409], [r.data for r in results]
        loser = next(r for r in results if r.status_code == 409).json()
        assert (loser["code"], loser["current_version"]) == (
            "stale_version",
            version + 1,
        )
        winner = next(r for r in results if r.status_code == 201).json()
        stored = Match.objects.get(pk=match.pk)
        assert stored.version == version + 1
        assert Deal.objects.filter(match=match).count() == round_ + 1
        assert (
            Deal.objects.get(match=match, number=winner["number"]).taken
            == winner["taken"]
        )
        # The winner's row only: nothing lost, nothing doubled, one history entry.
        assert SheetChange.objects.filter(match=match).count() == round_ + 2
        assert stored.total_a == 2 * (round_ + 1)


def test_a_penalty_and_a_deal_change_at_once(sheet):
    match, scorers = sheet
    _, m = services.score_sheet_deal_record(
        match_id=match.pk, user=scorers[0], version=1, **deal_body(1)
    )
    results = _race(
        [
            (
                scorers[0],
                f"/api/v1/matches/{match.pk}/penalties/",
                {"deal": 1, "offender": "A", "kind": "kallakali", "version": m.version},
            ),
            (
                scorers[1],
                f"/api/v1/matches/{match.pk}/deals/",
                {**deal_body(2), "version": m.version},
            ),
        ]
    )
    assert sorted(r.status_code for r in results) == [201, 409]
    stored = Match.objects.get(pk=match.pk)
    penalties = Penalty.objects.filter(deal__match=match).count()
    deals = Deal.objects.filter(match=match).count()
    assert (penalties, deals) in ((1, 1), (0, 2))
    assert stored.version == m.version + 1
    # The stored totals are those of the rows that are there.
    assert (stored.total_a, stored.total_b) == ((0, 6) if penalties else (4, 0))
