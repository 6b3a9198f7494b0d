"""A final league to seed a knockout from, and playing knockout sheets through the
API as a scorer would (tests/scoring/league.py gives the deals)."""

from __future__ import annotations

from scoring.demo import confirm_as_organizer
from tests.factories import TournamentFactory, member
from tests.scoring.league import deals_for, drawn_league, enter, play_quickly
from tournament.domain.types import Role


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
        confirm_as_organizer(match, organizer)
    return tournament, organizer


def play_sheet(api, match_id: int, total_a: int, total_b: int, deals: int) -> dict:
    """Exactly `deals` deals giving these totals; the sheet after them."""
    return enter(api, match_id, deals_for(total_a, total_b, deals))


def bracket(api, slug: str) -> dict:
    answer = api.get(f"/api/v1/tournaments/{slug}/bracket/")
    assert answer.status_code == 200
    return answer.json()


def matches_of(data: dict) -> dict[int, dict]:
    """Every bracket match by its number."""
    return {m["number"]: m for r in data["rounds"] for m in r["matches"]}
