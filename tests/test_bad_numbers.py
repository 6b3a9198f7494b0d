"""Numbers past what the database holds are the caller's mistake (400, or 404 for an
address), never a server error: found by schemathesis (an id of 33 digits in
`?team=` overflowed SQLite)."""

import pytest

from tests.conftest import as_user
from tests.factories import member
from tournament.domain.types import Role

pytestmark = pytest.mark.django_db
HUGE = "9" * 30


def test_a_huge_id_in_an_address_is_not_found(api, tournament):
    tournament.published = True
    tournament.save()
    for path in (
        f"/api/v1/matches/{HUGE}/",
        f"/api/v1/exports/{HUGE}/",
        f"/api/v1/tournaments/{tournament.slug}/teams/{HUGE}/",
        f"/matches/{HUGE}/",
        f"/t/{tournament.slug}/teams/{HUGE}/",
    ):
        assert api.get(path).status_code == 404, path


def test_a_huge_number_in_a_query_or_body_is_refused_by_name(api, tournament):
    tournament.published = True
    tournament.save()
    as_user(api, member(tournament, Role.ORGANIZER, "org"))
    base = f"/api/v1/tournaments/{tournament.slug}"
    answer = api.get(f"{base}/matches/?team={HUGE}")
    assert answer.status_code == 400
    assert "team" in answer.json()
    answer = api.post(
        f"{base}/matches/",
        {"team_a": HUGE, "team_b": 1, "round": 1, "table": 1},
        "json",
    )
    assert answer.status_code == 400
    assert "team_a" in answer.json()


def test_pages_given_huge_numbers_refuse_them(client, tournament):
    tournament.published = True
    tournament.save()
    scorer = member(tournament, Role.SCORER, "scorer")
    client.force_login(scorer)
    for path in (
        f"/t/{tournament.slug}/print/?round={HUGE}",
        f"/t/{tournament.slug}/matches/?round={HUGE}",
        f"/t/{tournament.slug}/matches/?team={HUGE}",
        f"/t/{tournament.slug}/standings/?section={HUGE}",
        f"/t/{tournament.slug}/teams/?section={HUGE}",
    ):
        answer = client.get(path)
        assert answer.status_code in (200, 400, 404), (path, answer.status_code)


def test_the_page_safety_net_answers_400(rf):
    """What a page cannot check ahead, the middleware answers: 400, not 500."""
    from django.db import DataError

    from tournament.web.security import NumbersOutOfRange

    net = NumbersOutOfRange(lambda request: None)
    for error in (OverflowError("int too large"), DataError("out of range")):
        answer = net.process_exception(rf.get("/"), error)
        assert answer.status_code == 400
        assert b"too large" in answer.content
    assert net.process_exception(rf.get("/"), ValueError("other")) is None
