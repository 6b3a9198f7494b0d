"""A final league to seed a knockout from, and playing knockout sheets through the
API as a scorer would (tests/scoring/league.py gives the deals)."""

from __future__ import annotations

from scoring import services
from scoring.models import Match
from tests.factories import TournamentFactory, member
from tests.scoring.league import deals_for, drawn_league, play_quickly
from tournament.domain.types import Role

ORGANIZER_ONLY = frozenset({Role.ORGANIZER})


def final_league(
    sections: int, per_section: int, *, qualifiers: int = 24, slug: str = "ko-cup"
):
    """A 3-round league of 6-deal matches, every sheet confirmed and every round
    released: the standings are final. Results vary with the table, so the ranking
    has few ties."""
    tournament = TournamentFactory(
        slug=slug, league_rounds=3, league_deals=6, qualifiers=qualifiers
    )
    organizer = member(tournament, Role.ORGANIZER, username=f"{slug}-organizer")
    matches = drawn_league(
        tournament, organizer, sections=sections, per_section=per_section
    )
    for n, match in enumerate(matches):
        play_quickly(match.pk, organizer, 12 + n % 7, 10 + n % 5, deals=6)
        version = Match.objects.get(pk=match.pk).version
        services.score_sheet_confirm(
            match_id=match.pk,
            user=organizer,
            version=version,
            roles=ORGANIZER_ONLY,
            sides=frozenset(),
        )
    return tournament, organizer


def enter(api, match_id: int, bodies: list[dict], *, first: int = 1) -> dict:
    """Enter deal bodies from deal number `first` on; the sheet after them."""
    url = f"/api/v1/matches/{match_id}/"
    version = api.get(url).json()["version"]
    for n, body in enumerate(bodies, start=first):
        answer = api.post(
            url + "deals/", {**body, "number": n, "version": version}, "json"
        )
        assert answer.status_code == 201, answer.json()
        version = answer.json()["version"]
    return api.get(url).json()


def play_sheet(api, match_id: int, total_a: int, total_b: int, deals: int) -> dict:
    return enter(api, match_id, deals_for(total_a, total_b, deals))


def confirm(api, match_id: int) -> dict:
    url = f"/api/v1/matches/{match_id}/"
    version = api.get(url).json()["version"]
    answer = api.post(url + "confirm/", {"version": version}, "json")
    assert answer.status_code == 200, answer.json()
    return answer.json()


def bracket(api, slug: str) -> dict:
    answer = api.get(f"/api/v1/tournaments/{slug}/bracket/")
    assert answer.status_code == 200
    return answer.json()


def matches_of(data: dict) -> dict[int, dict]:
    """Every bracket match by its number."""
    return {m["number"]: m for r in data["rounds"] for m in r["matches"]}
