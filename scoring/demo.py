"""Plays the demo tournament's league part of the way, through the same services a
scorer and an organizer use, so `make run` shows standings in play: the league drawn
from a recorded seed, some rounds played and confirmed, one round part played (sheets
completed and not confirmed, sheets in progress), the rest still drafts.

The deals are random but reproducible (`deal_seed` of fixtures/demo-league.json):
bids mostly 28 to 40, now and then higher, doubled now and then, a declarer taking
around what was bid; a few out-of-turn offences and a kallakali. Most deals name
their bidder (a player of the declaring team) and about one in four its auction, so
the statistics pages show something real; those come from a second generator seeded
by the match and deal, so the deals stay what they were.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from django.db import transaction

from tournament.domain.types import Role
from tournament.models import Membership, Tournament
from tournament.selectors import match_roster

from .desk import services as desk_services
from .domain.auction import LETTER_OF
from .domain.rules import Level, Side, Trump
from .league import services as league_services
from .models import Match
from .sheets import services as sheets_services

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
DEMO_LEAGUE = FIXTURES / "demo-league.json"
BIDS = [28, 28, 29, 30, 30, 31, 32, 33, 34, 35, 36, 38, 40, 40, 44, 48, 52, 56]


def random_deal(rng: random.Random, number: int) -> dict:
    value = rng.choice(BIDS)
    taken = max(0, min(56, value + rng.randint(-10, 8)))
    return {
        "number": number,
        "declarer": rng.choice([Side.A, Side.B]).value,
        "value": value,
        "trump": rng.choice(list(Trump)).value,
        "level": rng.choices(list(Level), weights=[24, 3, 1])[0].value,
        "taken": taken,
    }


def demo_auction(deal: dict, players: int) -> str:
    """A short legal auction ending on the deal's contract (docs/auction.md): the
    declaring team leads and bids it; a double, and a redouble, come straight after."""
    others = " ".join(["P"] * (players - 1))
    bid = f"{deal['value']}{LETTER_OF[Trump(deal['trump'])]}"
    ending = {
        Level.NONE.value: others,
        Level.DOUBLED.value: f"X {others}",
        Level.REDOUBLED.value: "X XX",
    }[deal["level"]]
    return f"{deal['declarer']}: {bid} {ending}"


def with_bidder(deal: dict, match: Match, roster: dict[str, list[str]]) -> dict:
    """The deal with its bidder most of the time, and its auction now and then."""
    pick = random.Random(match.pk * 1000 + deal["number"])  # noqa: S311 - demo data
    extra = {}
    names = roster.get(deal["declarer"], [])
    if names and pick.random() < 0.85:
        extra["bidder"] = pick.choice(names)
    if pick.random() < 0.25:
        players = 2 * match.tournament.players_per_team
        extra["auction"] = demo_auction(deal, players)
    return {**deal, **extra}


def play_randomly(match: Match, user, rng: random.Random, deals: int) -> Match:
    """Deals 1..`deals` at random, now and then penalties; the match after them."""
    version = match.version
    roster = match_roster(
        team_a=match.team_a_id,
        team_b=match.team_b_id,
        stage=match.stage,
        round=match.round,
    )
    for number in range(1, deals + 1):
        deal = with_bidder(random_deal(rng, number), match, roster)
        _, match = sheets_services.score_sheet_deal_record(
            match_id=match.pk, user=user, version=version, **deal
        )
        version = match.version
    if rng.random() < 0.3:  # out of turn twice: a warning, then a point
        offender = rng.choice([Side.A, Side.B]).value
        for _ in range(2):
            _, match = sheets_services.score_sheet_penalty_record(
                match_id=match.pk,
                user=user,
                version=match.version,
                deal=rng.randint(1, deals),
                offender=offender,
                kind="out_of_turn",
                by_organizer=False,
            )
    if rng.random() < 0.08:  # 000 §5.5: caught and proved
        _, match = sheets_services.score_sheet_penalty_record(
            match_id=match.pk,
            user=user,
            version=match.version,
            deal=rng.randint(1, deals),
            offender=rng.choice([Side.A, Side.B]).value,
            kind="kallakali",
            note="revoke caught at trick 6",
            by_organizer=False,
        )
    return match


def confirm_as_organizer(match: Match, user) -> None:
    """Lock the sheet at the version it is at now, as an organizer does."""
    version = Match.objects.values_list("version", flat=True).get(pk=match.pk)
    sheets_services.score_sheet_confirm(
        match_id=match.pk,
        user=user,
        version=version,
        roles=frozenset({Role.ORGANIZER}),
        sides=frozenset(),
    )


@transaction.atomic
def demo_league_play(*, path: Path = DEMO_LEAGUE) -> tuple[Tournament, bool]:
    """The demo league played as fixtures/demo-league.json says; False when its
    tournament already has a draw (then nothing is changed)."""
    spec = json.loads(path.read_text(encoding="utf-8"))
    tournament = Tournament.objects.get(slug=spec["tournament"])
    if tournament.draws.exists():
        return tournament, False
    organizer = Membership.objects.filter(
        tournament=tournament, role=Role.ORGANIZER
    ).first()
    scorer = Membership.objects.filter(tournament=tournament, role=Role.SCORER).first()
    if organizer is None or scorer is None:
        raise AssertionError("the demo needs its organizer and scorer; load it first")
    league_services.league_draw_generate(
        tournament=tournament, user=organizer.user, seed=spec["draw_seed"]
    )
    for number in range(1, spec["released_rounds"] + 1):
        league_services.league_round_release(
            tournament=tournament, user=organizer.user, number=number
        )
    rng = random.Random(spec["deal_seed"])  # noqa: S311 - demo deals, reproducible
    deals = tournament.league_deals
    matches = (
        Match.objects.filter(tournament=tournament)
        .select_related("tournament")
        .order_by("round", "table")
    )
    for match in matches.filter(round__lte=spec["confirmed_rounds"]):
        confirm_as_organizer(
            play_randomly(match, scorer.user, rng, deals), organizer.user
        )
    in_play = spec["round_in_play"]
    playing = list(matches.filter(round=in_play["round"]))
    for match in playing[: in_play["completed"]]:
        play_randomly(match, scorer.user, rng, deals)
    started = in_play["completed"] + in_play["in_progress"]
    for match in playing[in_play["completed"] : started]:
        play_randomly(match, scorer.user, rng, in_play["deals_in_progress"])
    for text in spec.get("announcements", []):  # the venue screen's bottom line
        desk_services.announcement_create(
            tournament=tournament, user=organizer.user, text=text
        )
    return tournament, True
