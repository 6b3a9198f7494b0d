"""A second demo tournament with its knockout in play, through the same services a
scorer and an organizer use: the Spring Open (fixtures/demo-knockout.json), the demo
championship's teams in a short league (3 rounds of 6 deals), every league sheet
confirmed, the best 12 seeded (4 byes), the first knockout round played (one match
through the extra deals, the toss and the deciding deal), and the quarter-finals part
played."""

from __future__ import annotations

import json
import random
from pathlib import Path

from django.db import transaction

from scoring.demo import confirm_as_organizer, play_randomly, random_deal
from scoring.domain.rules import MatchStatus, Side
from scoring.domain.tiebreak import Phase
from scoring.league import services as league_services
from scoring.models import Match
from scoring.sheets import services as sheets_services
from scoring.sheets import toss as sheets_toss
from scoring.sheets.selectors import sheet_read
from tournament.demo import FIXTURES, demo_load
from tournament.domain.types import Role
from tournament.models import Membership, Tournament

from . import services
from .models import Bracket, Game

DEMO_KNOCKOUT = FIXTURES / "demo-knockout.json"


def _settle(match: Match, user, rng: random.Random) -> None:
    """Play the tie-break, if the totals ask for one, to a decision."""
    while True:
        view = sheet_read(match=Match.objects.get(pk=match.pk))
        tb = view.tiebreak
        if tb is None or tb.phase is Phase.DECIDED:
            return
        if tb.phase is Phase.TOSS:
            winner = rng.choice([Side.A, Side.B])
            sheets_toss.score_sheet_toss_record(
                match_id=match.pk,
                user=user,
                version=None,
                winner=winner.value,
                first_dealer=rng.choice([Side.A, Side.B]).value,
            )
            continue
        sheets_services.score_sheet_deal_record(
            match_id=match.pk,
            user=user,
            version=None,
            **random_deal(rng, tb.missing[0]),
        )


def _level_deals(match: Match, user, count: int) -> None:
    """Deals of one point each, to A and B in turn: equal totals after any even
    count (the stipulated deals and the two extra ones)."""
    for number in range(1, count + 1):
        side = Side.A if number % 2 else Side.B
        sheets_services.score_sheet_deal_record(
            match_id=match.pk,
            user=user,
            version=None,
            number=number,
            declarer=side.value,
            value=28,
            trump="hearts",
            level="none",
            taken=30,
        )


@transaction.atomic
def demo_knockout_play(*, path: Path = DEMO_KNOCKOUT) -> tuple[Tournament, bool]:
    """The Spring Open with its knockout in play; False when it is seeded already."""
    spec = json.loads(path.read_text(encoding="utf-8"))
    base = json.loads((FIXTURES / spec["teams_from"]).read_text(encoding="utf-8"))
    tournament, _ = demo_load(data={**base, "tournament": spec["tournament"]})
    if Bracket.objects.filter(tournament=tournament).exists():
        return tournament, False
    roles = Membership.objects.filter(tournament=tournament).select_related("user")
    organizer = roles.get(role=Role.ORGANIZER).user
    scorer = roles.filter(role=Role.SCORER).first().user
    rng = random.Random(spec["deal_seed"])  # noqa: S311 - demo deals, reproducible
    if not tournament.draws.exists():
        league_services.league_draw_generate(
            tournament=tournament, user=organizer, seed=spec["draw_seed"]
        )
        league_services.league_rounds_release_all(tournament=tournament, user=organizer)
    for match in Match.objects.filter(tournament=tournament).order_by("round", "table"):
        match = play_randomly(match, scorer, rng, tournament.league_deals)
        confirm_as_organizer(match, organizer)
    bracket = services.knockout_seed(
        tournament=tournament, user=organizer, deals=spec["deals"]
    )

    def sheets_of(round_: int) -> list[Match]:
        games = Game.objects.filter(
            knockout_match__bracket=bracket, knockout_match__round=round_
        ).select_related("sheet", "knockout_match")
        return [g.sheet for g in games.order_by("knockout_match__number")]

    for number, match in enumerate(sheets_of(1), start=1):
        deals = match.deals_scheduled or 0
        if number == spec["tossed_match"]:
            _level_deals(match, scorer, deals + 2)  # equal after the extra deals too
        else:
            play_randomly(match, scorer, rng, deals)
        _settle(match, scorer, rng)
        confirm_as_organizer(match, organizer)
    quarters = sheets_of(2)
    confirmed = spec["quarter_finals_confirmed"]
    for match in quarters[:confirmed]:
        play_randomly(match, scorer, rng, match.deals_scheduled or 0)
        _settle(match, scorer, rng)
        confirm_as_organizer(match, organizer)
    for match in quarters[confirmed : confirmed + spec["quarter_finals_in_progress"]]:
        play_randomly(match, scorer, rng, (match.deals_scheduled or 0) // 2)
    if Match.objects.filter(tournament=tournament, status=MatchStatus.VOID).exists():
        raise AssertionError("the demo voids no sheet")
    tournament.refresh_from_db()
    return tournament, True
