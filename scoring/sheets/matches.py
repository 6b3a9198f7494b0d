"""Creating and deleting score sheets: a match of the league drawn by hand or of the
knockout seeded, one transaction each, recorded in the sheet's history (the writes
to a sheet's deals and penalties are in services.py)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from tournament.domain.errors import (
    ConflictError,
    RuleError,
    marked,
)
from tournament.models import Team, Tournament

from ..domain.rules import MatchStatus, Stage
from ..models import (
    Match,
    SheetAction,
    SheetChange,
)
from .locking import (
    change_row,
)

# Matches
# ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchPlan:
    """One match to set up: its teams, round and table, and its deals (None: the
    tournament's league deals)."""

    team_a: int
    team_b: int
    round: int
    table: int
    deals_scheduled: int | None = None


@transaction.atomic
def match_create(
    *,
    tournament: Tournament,
    user,
    team_a: int,
    team_b: int,
    round: int,
    table: int,
    stage: str = Stage.LEAGUE,
    deals_scheduled: int | None = None,
) -> Match:
    """A match set up by hand by an organizer (the league draw makes them too)."""
    plan = MatchPlan(team_a, team_b, round, table, deals_scheduled)
    (match,) = matches_create(
        tournament=tournament, user=user, stage=stage, plans=[plan]
    )
    return match


# The sheets that hold a knockout table (the named constraint
# scoring_match_table_one_open_sheet_per_knockout_round).
_KNOCKOUT_TABLE_BUSY = frozenset(
    {MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS, MatchStatus.COMPLETED}
)

# A new match's references that matches_create reads itself before checking a row.
_READ_ABOVE = frozenset({"tournament", "team_a", "team_b"})


@transaction.atomic
def matches_create(
    *, tournament: Tournament, user, stage: str, plans: list[MatchPlan]
) -> list[Match]:
    """Matches set up together (a knockout's first sheets), each checked as
    match_create checks one, written in bulk with their history: the first refusal
    names its field, and nothing is written. The database's named constraints hold
    the rest of each row."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    wanted = {pk for p in plans for pk in (p.team_a, p.team_b)}
    teams = {t.pk: t for t in Team.objects.filter(tournament=tournament, pk__in=wanted)}
    rounds = {p.round for p in plans}
    existing = list(
        Match.objects.filter(tournament=tournament, stage=stage, round__in=rounds)
        .order_by()
        .values_list("round", "table", "team_a_id", "team_b_id", "status")
    )
    # A league table plays one match a round; a knockout table one sheet at a time
    # (the final's games follow each other there, rules.md §6; a void sheet stays).
    tables = {
        (r, t)
        for r, t, _, _, status in existing
        if stage == Stage.LEAGUE or status in _KNOCKOUT_TABLE_BUSY
    }
    busy = {(r, team) for r, _, a, b, _ in existing for team in (a, b)}
    matches = []
    for plan in plans:
        a, b = _plan_check(tournament, stage, plan, teams, tables, busy)
        tables.add((plan.round, plan.table))
        busy |= {(plan.round, a.pk), (plan.round, b.pk)}
        match = Match(
            tournament=tournament,
            stage=stage,
            round=plan.round,
            table=plan.table,
            team_a=a,
            team_b=b,
            deals_scheduled=(
                tournament.league_deals
                if plan.deals_scheduled is None
                else plan.deals_scheduled
            ),
        )
        # The fields' own checks, but for the three references, read above (the
        # tournament locked, each team found in it): asked again, they were a
        # query each, three per match. The constraints are the database's, on
        # insert (one match's are checked here, to name their field).
        match.full_clean(exclude=_READ_ABOVE, validate_constraints=False)
        matches.append(match)
    if len(matches) == 1:
        matches[0].validate_constraints()
    created = Match.objects.bulk_create(matches)
    if any(m.pk is None for m in created):  # SQLite before 3.35 returns no ids
        stored = {
            (m.round, m.table): m
            for m in Match.objects.filter(
                tournament=tournament, stage=stage, round__in=rounds
            )
        }
        created = [stored[m.round, m.table] for m in matches]
    SheetChange.objects.bulk_create(
        change_row(
            m,
            SheetAction.MATCH_CREATE,
            user=user,
            after={
                "team_a": m.team_a.name,
                "team_b": m.team_b.name,
                "stage": stage,
                "round": m.round,
                "table": m.table,
                "deals_scheduled": m.deals_scheduled,
            },
        )
        for m in created
    )
    return created


def _plan_check(tournament, stage, plan: MatchPlan, teams, tables, busy):
    """The two teams of `plan`, or the refusal that names the field."""
    for field, pk in (("team_a", plan.team_a), ("team_b", plan.team_b)):
        if pk not in teams:
            raise RuleError(
                "unknown_team",
                marked("there is no team %(pk)s in %(tournament)s."),
                field=field,
                pk=pk,
                tournament=tournament.name,
            )
    if plan.team_a == plan.team_b:
        raise RuleError(
            "same_team",
            marked("a team cannot play itself; choose two teams."),
            field="team_b",
        )
    a, b = teams[plan.team_a], teams[plan.team_b]
    if stage == Stage.LEAGUE:
        if a.section_id == b.section_id:
            raise RuleError(
                "same_section",
                marked(
                    "%(a)s and %(b)s are both in section %(section)s; in the league "
                    "no team meets a team of its own section."
                ),
                field="team_b",
                a=a.name,
                b=b.name,
                section=a.section,
            )
        if not 1 <= plan.round <= tournament.league_rounds:
            raise RuleError(
                "round_out_of_range",
                marked(
                    "the league of %(tournament)s has rounds 1 to %(league_rounds)s."
                ),
                field="round",
                tournament=tournament.name,
                league_rounds=tournament.league_rounds,
            )
    if (plan.round, plan.table) in tables:
        raise ConflictError(
            "table_taken",
            marked("table %(table)s of %(stage)s round %(round)s already has a match."),
            field="table",
            table=plan.table,
            stage=stage,
            round=plan.round,
        )
    if stage == Stage.LEAGUE and {(plan.round, a.pk), (plan.round, b.pk)} & busy:
        # The final's games share a knockout round.
        raise ConflictError(
            "team_busy",
            marked(
                "%(a)s or %(b)s already plays in %(stage)s round %(round)s; a team "
                "plays one match per round."
            ),
            a=a.name,
            b=b.name,
            stage=stage,
            round=plan.round,
        )
    return a, b


@transaction.atomic
def match_delete(*, match: Match, user) -> None:
    """Only a match whose sheet was never written to goes; its history would be lost."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    if match.changes.exclude(action=SheetAction.MATCH_CREATE).exists():
        raise ConflictError(
            "match_has_history",
            marked(
                "%(match)s has a score sheet history; a match that was scored cannot "
                "be deleted."
            ),
            match=match,
        )
    match.changes.all().delete()
    match.delete()
