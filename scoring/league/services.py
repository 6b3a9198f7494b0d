"""Writes of the league: the draw stored as matches and byes, rounds released, and the
lots that order equal teams where a place must be decided (rules.md §5).

The draw itself is the league's pure rule (scoring/domain/draw.py); the services
below store it as this app's matches and byes.
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils import timezone

from scoring.domain.draw import check_draw, draw_league, draw_spread
from scoring.models import Bye, LeagueDraw, LeagueRound
from tournament.backups.services import backup_before_step
from tournament.domain.errors import (
    ConflictError,
    RuleError,
    Words,
    filled,
    marked,
)
from tournament.domain.roster import substitution_check
from tournament.domain.types import RoundStage, TeamStatus, TournamentStatus
from tournament.models import Substitution, Team, Tournament, account
from tournament.persons.services import seats_sync
from tournament.selectors import swaps_of
from tournament.web.zones import told

from ..domain import standings as ranking
from ..domain.forfeits import LeagueMatch, withdrawal_forfeits
from ..domain.rules import FINAL_STATUSES, Stage
from ..models import (
    Match,
    SheetAction,
    SheetChange,
    StandingsLot,
)
from ..sheets.day import sheet_forfeit_locked, words_check
from ..sheets.locking import actor_name, sheet_open
from .selectors import (
    draw_locked_reason,
    draw_teams,
    standings_get,
)

SEED_LIMIT = 2**63  # seeds are 0 .. 2**63 - 1, a PostgreSQL bigint


# The league draw
# ----------------------------------------------------------------------------------
# The draw is the league's pure rule (scoring/domain/draw.py); what it writes are
# matches, the score sheets of this app, and byes.


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
        raise ConflictError(
            "draw_locked", marked("Cannot draw again: %(locked)s."), locked=locked
        )
    if seed is None:
        seed = secrets.randbelow(SEED_LIMIT)
    teams = draw_teams(tournament=tournament, entrants=True)
    if tournament.check_in_required and not teams:
        raise ConflictError(
            "no_team_checked_in",
            marked(
                "Cannot draw: %(tournament)s requires check-in and no team is checked"
                " in yet; the draw takes the teams checked in."
            ),
            tournament=tournament.name,
        )
    backup_before_step(tournament=tournament, step="the draw", user=user)
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
        created_by=account(user),
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
    actor = account(user)
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
    # rules.md §9: the teams the draw did not take are absent, kept on record.
    drawn = [t.key for t in teams]
    everyone = Team.objects.filter(tournament=tournament)
    everyone.filter(pk__in=drawn).update(status=TeamStatus.ACTIVE)
    everyone.exclude(pk__in=drawn).update(status=TeamStatus.ABSENT)
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
            marked(
                "%(tournament)s has no drawn league round %(number)s; draw the league"
                " first."
            ),
            field="round",
            tournament=tournament.name,
            number=number,
        )
    if found.released_at is None:
        found.released_at = timezone.now()
        found.released_by = account(user)
        found.save(update_fields=["released_at", "released_by"])
    return found


@transaction.atomic
def league_rounds_release_all(*, tournament: Tournament, user) -> int:
    """Release every drafted round at once; how many were drafts."""
    drafts = LeagueRound.objects.filter(tournament=tournament, released_at__isnull=True)
    if not LeagueRound.objects.filter(tournament=tournament).exists():
        raise ConflictError(
            "no_such_round",
            marked("%(tournament)s has no drawn league rounds; draw the league first."),
            tournament=tournament.name,
        )
    return drafts.update(released_at=timezone.now(), released_by=account(user))


# Lots in the standings
# ----------------------------------------------------------------------------------


def league_final_check(progress, *, doing: str) -> None:
    """409 `league_not_final`, saying what is missing, unless every league sheet is
    confirmed and every round released."""
    if progress.final:
        return
    waiting: list[Words] = []
    if progress.matches == 0:
        waiting.append(marked("the league has no matches yet"))
    elif progress.confirmed < progress.matches:
        waiting.append(
            filled(
                marked("%(open)s of %(matches)s league sheets are not confirmed yet"),
                open=progress.matches - progress.confirmed,
                matches=progress.matches,
            )
        )
    if progress.draft_rounds:
        waiting.append(
            filled(
                marked("%(rounds)s drawn rounds are not released"),
                rounds=progress.draft_rounds,
            )
        )
    raise ConflictError(
        "league_not_final",
        filled(
            marked("%(doing)s on the final standings, and %(waiting)s."),
            doing=doing,
            waiting=waiting[0]
            if len(waiting) == 1
            else filled(
                marked("%(first)s and %(second)s"),
                first=waiting[0],
                second=waiting[1],
            ),
        ),
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
            marked(
                "The lots of %(tournament)s were drawn at %(drawn_at)s with seed "
                "%(seed)s; "
                "they are drawn once, and that seed orders any equal teams from then "
                "on."
            ),
            seed=drawn.seed,
            tournament=tournament.name,
            drawn_at=told(drawn.drawn_at, "Y-m-d H:i", tournament.time_zone),
        )
    standings = standings_get(tournament=tournament)
    league_final_check(standings.progress, doing=marked("Lots are drawn"))
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
        drawn_by=account(user),
    )


# The tournament day: withdrawals and substitutions (rules.md §9)
# ----------------------------------------------------------------------------------


def _in_league(tournament: Tournament, team: Team, doing: str) -> None:
    if tournament.status == TournamentStatus.REGISTRATION:
        raise ConflictError(
            "league_not_drawn",
            marked(
                "Cannot %(doing)s: the league of %(tournament)s is not drawn yet; "
                "before the draw a team's players are changed, or the team deleted, "
                "on its registration."
            ),
            doing=doing,
            tournament=tournament.name,
        )
    if team.status == TeamStatus.ABSENT:
        raise ConflictError(
            "team_absent",
            marked(
                "Cannot %(doing)s: %(team)s was not checked in for the draw and plays"
                " no match."
            ),
            doing=doing,
            team=team.name,
        )


@transaction.atomic
def team_withdraw(*, team: Team, user, from_round: int, reason: str) -> Team:
    """An organizer withdraws a team that leaves (or is disqualified) from a league
    round on (rules.md §9): each of its league matches from that round with no deal
    and not yet final becomes a forfeit by it, which its opponent wins; earlier
    results stand. The team stays in the standings, marked, and never qualifies. An
    automatic backup is taken first, as before the draw."""
    tournament = Tournament.objects.select_for_update().get(pk=team.tournament_id)
    team = Team.objects.select_for_update().get(pk=team.pk)
    reason = words_check(reason, "reason", marked("why the team is withdrawn"), 300)
    _in_league(
        tournament,
        team,
        filled(marked("withdraw %(team)s"), team=team.name),
    )
    if team.status == TeamStatus.WITHDRAWN:
        raise ConflictError(
            "team_withdrawn",
            marked(
                "%(team)s was withdrawn from round %(withdrawn_from_round)s already "
                "(%(withdrawn_reason)s)."
            ),
            team=team.name,
            withdrawn_from_round=team.withdrawn_from_round,
            withdrawn_reason=team.withdrawn_reason,
        )
    if tournament.status != TournamentStatus.LEAGUE:
        raise ConflictError(
            "knockout_seeded",
            marked(
                "Cannot withdraw %(team)s: the knockout of %(tournament)s is seeded. "
                "A team that leaves the knockout forfeits its match there: an "
                "organizer records the forfeit on that sheet."
            ),
            team=team.name,
            tournament=tournament.name,
        )
    if not 1 <= from_round <= tournament.league_rounds:
        raise RuleError(
            "round_out_of_range",
            marked("the league has rounds 1 to %(league_rounds)s"),
            field="from_round",
            league_rounds=tournament.league_rounds,
        )
    backup_before_step(
        tournament=tournament, step=f"the withdrawal of {team.name}", user=user
    )
    matches = list(
        Match.objects.filter(tournament=tournament, stage=Stage.LEAGUE)
        .filter(Q(team_a=team) | Q(team_b=team))
        .annotate(deal_count=Count("deals"))
    )
    plan = withdrawal_forfeits(
        team.pk,
        from_round,
        [
            LeagueMatch(m.pk, m.round, m.team_a_id, m.team_b_id, m.deal_count, m.final)
            for m in matches
        ],
    )
    why = f"{team.name} withdrew from round {from_round}: {reason}"
    for match_id, absent in plan:
        match = sheet_open(
            match_id=match_id, version=None, action=marked("record a forfeit")
        )
        sheet_forfeit_locked(match, absent, reason=why[:300], user=user)
    team.status = TeamStatus.WITHDRAWN
    team.withdrawn_from_round = from_round
    team.withdrawn_reason = reason
    team.withdrawn_at = timezone.now()
    team.withdrawn_by = account(user)
    team.full_clean()
    team.save()
    return team


@transaction.atomic
def substitution_approve(
    *,
    team: Team,
    user,
    out: str,
    into: str,
    from_round: int,
    reason: str,
    stage: str = RoundStage.LEAGUE,
) -> Substitution:
    """An organizer approves a player substitution for a team (rules.md §9): who
    leaves, who comes in, from which round, why; at most the tournament's
    `substitutions_allowed` per team. Refused from a round whose sheet of the team
    is final already: the roster of a confirmed match is kept as it was played."""
    tournament = Tournament.objects.select_for_update().get(pk=team.tournament_id)
    team = Team.objects.select_for_update().get(pk=team.pk)
    _in_league(
        tournament,
        team,
        filled(marked("substitute a player of %(team)s"), team=team.name),
    )
    if team.status == TeamStatus.WITHDRAWN:
        raise ConflictError(
            "team_withdrawn",
            marked("%(team)s was withdrawn from round %(withdrawn_from_round)s."),
            team=team.name,
            withdrawn_from_round=team.withdrawn_from_round,
        )
    reason = words_check(reason, "reason", marked("why the substitution is made"), 300)
    stage_of = RoundStage(stage)
    existing = list(Substitution.objects.filter(team=team).order_by("number"))
    out, into = substitution_check(
        list(team.players.order_by("position").values_list("name", flat=True)),
        swaps_of(existing),
        out=out,
        into=into,
        stage=stage_of,
        from_round=from_round,
        allowed=tournament.substitutions_allowed,
        league_rounds=tournament.league_rounds,
    )
    # The rounds from `from_round` on, league rounds before the knockout's.
    from_then = Q(stage=stage_of.value, round__gte=from_round)
    if stage_of is RoundStage.LEAGUE:
        from_then |= Q(stage=Stage.KNOCKOUT)
    played = (
        Match.objects.filter(tournament=tournament, status__in=FINAL_STATUSES)
        .filter(Q(team_a=team) | Q(team_b=team))
        .filter(from_then)
        .order_by("stage", "round")
        .first()
    )
    if played is not None:
        raise ConflictError(
            "round_played",
            marked(
                "%(team)s's sheet of %(stage)s round %(round)s is %(status)s "
                "already, "
                "with the players who played it; a substitution starts from a round "
                "not yet final."
            ),
            team=team.name,
            stage=played.stage,
            round=played.round,
            status=played.status,
        )
    made = Substitution.objects.create(
        team=team,
        number=len(existing) + 1,
        player_out=out,
        player_in=into,
        stage=stage_of.value,
        from_round=from_round,
        reason=reason,
        approved_by=account(user),
        approved_at=timezone.now(),
    )
    seats_sync(tournament=tournament, teams=[team.pk])
    return made
