"""Writes of the league: the draw stored as matches and byes, rounds released, and the
lots that order equal teams where a place must be decided (rules.md §5).

The draw itself is the tournament app's pure rule (tournament/domain/draw.py); what it
writes are this app's matches, so the service that stores it lives here (apps depend
one way: scoring → tournament).
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from tournament.backups.services import backup_before_step
from tournament.domain.draw import check_draw, draw_league, draw_spread
from tournament.domain.errors import (
    ConflictError,
)
from tournament.domain.types import TournamentStatus
from tournament.models import Bye, LeagueDraw, LeagueRound, Tournament

from ..domain import standings as ranking
from ..domain.rules import Stage
from ..models import (
    Match,
    SheetAction,
    SheetChange,
    StandingsLot,
)
from ..sheets.locking import actor_name
from .selectors import (
    draw_locked_reason,
    draw_teams,
    standings_get,
)

SEED_LIMIT = 2**63  # seeds are 0 .. 2**63 - 1, a PostgreSQL bigint


# The league draw
# ----------------------------------------------------------------------------------
# The draw is the tournament app's rule (tournament/domain/draw.py), but what it
# writes are matches, the score sheets of this app; apps depend one way (scoring →
# tournament), so the service that stores a draw lives here.


@transaction.atomic
def league_draw_generate(
    *, tournament: Tournament, user, seed: int | None = None
) -> LeagueDraw:
    """Draw the whole league (rules.md §5) and store its rounds, matches and byes.

    A redraw replaces the matches of the earlier draw, and matches set up by hand,
    while no league result is entered; after the first one the draw is locked. The
    seed is chosen at random when none is given; with the same teams, sections and
    seed the draw is the same. Rounds start as drafts for the organizer to release.
    Matches are inserted in bulk: `check_draw` has validated the whole draw first,
    and the database's constraints hold each row.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    locked = draw_locked_reason(tournament=tournament)
    if locked is not None:
        raise ConflictError("draw_locked", f"Cannot draw again: {locked}.")
    if seed is None:
        seed = secrets.randbelow(SEED_LIMIT)
    backup_before_step(tournament=tournament, step="the draw", user=user)
    teams = draw_teams(tournament=tournament)
    draw = draw_league(teams, tournament.league_rounds, seed)
    problems = check_draw(teams, tournament.league_rounds, draw.rounds)
    if problems:
        raise AssertionError(f"the draw broke its own rules: {problems}")
    spread = draw_spread(teams, draw.rounds)

    league = Match.objects.filter(tournament=tournament, stage=Stage.LEAGUE)
    SheetChange.objects.filter(match__in=league).delete()
    league.delete()
    Bye.objects.filter(tournament=tournament).delete()
    LeagueRound.objects.filter(tournament=tournament).delete()
    earlier = LeagueDraw.objects.filter(tournament=tournament)
    number = (earlier.aggregate(m=Max("number"))["m"] or 0) + 1
    earlier.update(current=False)
    record = LeagueDraw.objects.create(
        tournament=tournament,
        number=number,
        seed=seed,
        algorithm=draw.algorithm,
        rounds=tournament.league_rounds,
        teams=len(teams),
        restarts=draw.restarts,
        most_from_one_section=spread.most_from_one_section,
        mean_sections_met=spread.mean_sections_met,
        created_by=user if user is not None and user.is_authenticated else None,
    )
    LeagueRound.objects.bulk_create(
        LeagueRound(tournament=tournament, number=r.number) for r in draw.rounds
    )
    Bye.objects.bulk_create(
        Bye(tournament=tournament, round=r.number, team_id=r.bye)
        for r in draw.rounds
        if r.bye is not None
    )
    matches = Match.objects.bulk_create(
        Match(
            tournament=tournament,
            stage=Stage.LEAGUE,
            round=r.number,
            table=p.table,
            team_a_id=p.team_a,
            team_b_id=p.team_b,
            deals_scheduled=tournament.league_deals,
        )
        for r in draw.rounds
        for p in r.pairings
    )
    if any(m.pk is None for m in matches):  # SQLite before 3.35 returns no ids
        matches = list(league.order_by("round", "table"))
    actor = user if user is not None and user.is_authenticated else None
    SheetChange.objects.bulk_create(
        SheetChange(
            match=m,
            version=m.version,
            action=SheetAction.MATCH_CREATE,
            actor=actor,
            actor_name=actor_name(user),
            after={
                "team_a": m.team_a_id,
                "team_b": m.team_b_id,
                "stage": Stage.LEAGUE.value,
                "round": m.round,
                "table": m.table,
                "deals_scheduled": m.deals_scheduled,
                "draw": number,
                "seed": seed,
            },
        )
        for m in matches
    )
    tournament.status = TournamentStatus.LEAGUE
    tournament.save(update_fields=["status", "updated_at"])
    return record


@transaction.atomic
def league_round_release(*, tournament: Tournament, user, number: int) -> LeagueRound:
    """Show a drafted round's pairings to everyone (rules.md §5: pairings are
    published round by round, after the organizer has checked them)."""
    found = (
        LeagueRound.objects.select_for_update()
        .filter(tournament=tournament, number=number)
        .first()
    )
    if found is None:
        raise ConflictError(
            "no_such_round",
            f"{tournament.name} has no drawn league round {number}; draw the league "
            "first.",
            field="round",
        )
    if found.released_at is None:
        found.released_at = timezone.now()
        found.released_by = user if user.is_authenticated else None
        found.save(update_fields=["released_at", "released_by"])
    return found


@transaction.atomic
def league_rounds_release_all(*, tournament: Tournament, user) -> int:
    """Release every drafted round at once; how many were drafts."""
    drafts = LeagueRound.objects.filter(tournament=tournament, released_at__isnull=True)
    if not LeagueRound.objects.filter(tournament=tournament).exists():
        raise ConflictError(
            "no_such_round",
            f"{tournament.name} has no drawn league rounds; draw the league first.",
        )
    return drafts.update(
        released_at=timezone.now(), released_by=user if user.is_authenticated else None
    )


# Lots in the standings
# ----------------------------------------------------------------------------------


def league_final_check(progress, *, doing: str) -> None:
    """409 `league_not_final`, saying what is missing, unless every league sheet is
    confirmed and every round released."""
    if progress.final:
        return
    waiting = []
    if progress.matches == 0:
        waiting.append("the league has no matches yet")
    elif progress.confirmed < progress.matches:
        waiting.append(
            f"{progress.matches - progress.confirmed} of {progress.matches} "
            "league sheets are not confirmed yet"
        )
    if progress.draft_rounds:
        waiting.append(f"{progress.draft_rounds} drawn rounds are not released")
    raise ConflictError(
        "league_not_final",
        f"{doing} on the final standings, and "
        + " and ".join(waiting)
        + " (rules.md §5).",
    )


@transaction.atomic
def standings_lots_draw(
    *, tournament: Tournament, user, seed: int | None = None
) -> StandingsLot:
    """Draw the lots that order equal teams where a place must be decided: across
    the qualifying line and among the qualifiers, who are seeded one by one
    (rules.md §5). Once, when the league is final (every league sheet confirmed,
    every round released). The seed is recorded, and chosen at random when none is
    given; it orders any equal teams by a hash of seed and team, so a sheet reopened
    afterwards is ranked by the same lot rather than by a new one."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    drawn = StandingsLot.objects.filter(tournament=tournament).first()
    if drawn is not None:
        raise ConflictError(
            "lots_drawn",
            f"The lots of {tournament.name} were drawn at "
            f"{drawn.drawn_at:%Y-%m-%d %H:%M} with seed {drawn.seed}; they are drawn "
            "once, and that seed orders any equal teams from then on.",
            seed=drawn.seed,
        )
    standings = standings_get(tournament=tournament)
    league_final_check(standings.progress, doing="Lots are drawn")
    if seed is None:
        seed = secrets.randbelow(SEED_LIMIT)
    ordered = ranking.draw_lots(
        [row.standing for row in standings.rows],
        seed=seed,
        places=tournament.qualifiers,
    )
    decided = [
        [s.team for s in ordered if s.team in group]
        for group in map(set, standings.to_decide)
    ]
    return StandingsLot.objects.create(
        tournament=tournament,
        seed=seed,
        algorithm=ranking.LOT_ALGORITHM,
        places=tournament.qualifiers,
        decided=decided,
        drawn_by=user if user is not None and user.is_authenticated else None,
    )
