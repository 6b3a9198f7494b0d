"""Reads of the tournament day at a glance: which round is current, the desk's tables
with their states, the venue screen's views, and "where do I play?".

The states and the current round are decided by domain/desk.py from plain values;
here they are summed in SQL: one query for every round's counts, one for the chosen
round's tables (with their deal counts and last entries as subqueries), whatever the
size of the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from scoring.models import Announcement, Bye
from tournament.domain.roster import roster_at
from tournament.domain.types import RoundStage, TournamentStatus
from tournament.models import Team, Tournament
from tournament.selectors import rosters_get

from ..domain import desk as rules
from ..domain.rules import MatchStatus, Stage
from ..league.selectors import league_teams, round_marks, round_pick, standings_get
from ..models import Deal, Match, SheetAction, SheetChange
from ..sheets.selectors import match_queryset
from ..signals import screen_bracket

ENTRIES = [
    SheetAction.DEAL_ADD,
    SheetAction.DEAL_REPLACE,
    SheetAction.DEAL_DELETE,
    SheetAction.PENALTY_ADD,
    SheetAction.PENALTY_DELETE,
]


# The desk
# ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DeskTable:
    match: Match
    state: rules.TableState
    deals: int
    last_entry: datetime | None
    idle: float | None  # minutes since the last entry (or the release, before one)
    late: bool


@dataclass(frozen=True)
class Desk:
    marks: list[rules.RoundMark]
    round: rules.RoundMark | None
    current: rules.RoundMark | None
    tables: list[DeskTable]
    counts: dict[rules.TableState, int]
    next_draft: int | None  # the next league round waiting for its release
    late_after: int
    advice: rules.Advice  # what to do next (rules.desk_advice)


def round_tables(*, tournament: Tournament, mark: rules.RoundMark) -> QuerySet[Match]:
    """The tables of one round with their deal counts and last entries."""
    # An entry is what a scorer types: a deal or a penalty, added, replaced or
    # deleted (not the draw's creation of the sheet, nor a confirmation).
    last = SheetChange.objects.filter(
        match=OuterRef("pk"), action__in=ENTRIES
    ).order_by("-pk")
    deals = (
        Deal.objects.filter(match=OuterRef("pk"))
        .order_by()
        .values("match")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return (
        match_queryset()
        .filter(tournament=tournament, stage=mark.stage, round=mark.number)
        .exclude(status=MatchStatus.VOID)
        .annotate(
            last_entry=Subquery(last.values("at")[:1]),
            deals_in=Coalesce(Subquery(deals, output_field=IntegerField()), 0),
        )
        .order_by("table")
    )


def desk_get(
    *, tournament: Tournament, wanted: str | None = None, now: datetime | None = None
) -> Desk:
    """The current round's tables (or the one asked for) with their states (three
    queries)."""
    now = now or timezone.now()
    marks = round_marks(tournament=tournament, drafts=True)
    current = rules.current_round(marks)
    mark = round_pick(marks, wanted)
    drafts = [m for m in marks if not m.released and m.stage == Stage.LEAGUE]
    tables: list[DeskTable] = []
    if mark is not None:
        for match in round_tables(tournament=tournament, mark=mark):
            state = rules.table_state(match.status, match.open_disputes)
            since = match.last_entry or mark.released_at
            idle = (now - since).total_seconds() / 60 if since else None
            late = mark.released and rules.table_late(state, idle)
            tables.append(
                DeskTable(match, state, match.deals_in, match.last_entry, idle, late)
            )
    counts = {state: 0 for state in rules.TableState}
    for table in tables:
        counts[table.state] += 1
    next_draft = drafts[0].number if drafts else None
    return Desk(
        marks,
        mark,
        current,
        tables,
        counts,
        next_draft,
        rules.LATE_MINUTES,
        rules.desk_advice(current, next_draft=next_draft, status=tournament.status),
    )


def announcement_list(*, tournament: Tournament) -> QuerySet[Announcement]:
    """The announcements still shown, newest first."""
    return Announcement.objects.filter(
        tournament=tournament, ended_at__isnull=True
    ).order_by("-created_at")


# The venue screen
# ----------------------------------------------------------------------------------

PAIRINGS_PER_VIEW = 24  # two columns of 12 in large type on 1920×1080
STANDINGS_PER_VIEW = 12  # rows of the standings a view shows; every team in turn
ANNOUNCEMENTS_SHOWN = 3  # the newest ones, at the bottom of every view


@dataclass(frozen=True)
class Screen:
    round: rules.RoundMark | None
    view: rules.ScreenView
    index: int  # the view's place in the turn, 0 .. views - 1
    views: int  # how many views the screen turns through
    next_view: int
    tables: list[Match]
    byes: list[Bye]
    rows: list  # this view's part of the standings (StandingRow), on its views
    announcements: list[Announcement]
    bracket: rules.ScreenBracket | None = None  # once the knockout is seeded
    grid: tuple[int, int] = (1, 6)  # a pairings view's columns and rows

    @property
    def columns(self) -> list[rules.BracketColumn]:
        """The rounds the bracket view shows (rules.bracket_shown)."""
        return rules.bracket_shown(self.bracket.columns) if self.bracket else []

    @property
    def names(self) -> dict[int, rules.Words]:
        """Each table of the final's round by its own match's name, by the sheet's
        id ("Final, game 2", "Second runner-up match"); other tables have none."""
        if self.bracket is None:
            return {}
        return {
            m.pk: n for m in self.tables if (n := self.bracket.sheet_names.get(m.pk))
        }


KNOCKOUT_STATUSES = frozenset({TournamentStatus.KNOCKOUT, TournamentStatus.FINISHED})


def screen_bracket_get(*, tournament: Tournament) -> rules.ScreenBracket | None:
    """The knockout as the screen shows it, asked of the bracket (which scoring may
    not import: scoring.signals.screen_bracket), once it can be seeded; None before.
    Four queries in the knockout, none before it."""
    if tournament.status not in KNOCKOUT_STATUSES:
        return None
    for _, answer in screen_bracket.send(sender=Tournament, tournament=tournament):
        if answer is not None:
            return answer
    return None


def screen_get(*, tournament: Tournament, view: int) -> Screen:
    """View number `view` (any integer: it turns round) of the venue screen, with
    only what that view shows read: the tables of its part of the round, the byes on
    the last, the standings on theirs; in the knockout, its bracket (which says
    whether the final is decided, and so which views there are)."""
    marks = round_marks(tournament=tournament, drafts=False)
    current = rules.current_round(marks)
    bracket = screen_bracket_get(tournament=tournament)
    decided = bracket is not None and bracket.final_decided
    plan = rules.screen_plan(
        marks,
        current,
        PAIRINGS_PER_VIEW,
        teams=league_teams(tournament=tournament).count()
        if not decided and any(m.stage == Stage.LEAGUE and m.decided for m in marks)
        else 0,
        rows_per_view=STANDINGS_PER_VIEW,
        bracket=bracket,
        finished=tournament.status == TournamentStatus.FINISHED,
    )
    index = view % len(plan)
    shown = plan[index]
    tables: list[Match] = []
    byes: list[Bye] = []
    if current is not None and shown.kind == "pairings":
        part = shown.tables
        tables = list(
            round_tables(tournament=tournament, mark=current)[part.start : part.stop]
        )
        if shown.byes and current.stage == Stage.LEAGUE:
            byes = list(
                Bye.objects.filter(
                    tournament=tournament, round=current.number
                ).select_related("team")
            )
    rows = []
    if shown.kind == "standings":
        part = shown.rows
        rows = standings_get(tournament=tournament).rows[part.start : part.stop]
    return Screen(
        current,
        shown,
        index,
        len(plan),
        (index + 1) % len(plan),
        tables,
        byes,
        rows,
        list(announcement_list(tournament=tournament)[:ANNOUNCEMENTS_SHOWN]),
        bracket,
        rules.pairings_grid(len(tables)),
    )


# Where do I play?
# ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Whereabouts:
    team: Team
    current: rules.RoundMark | None
    match: Match | None  # in the current round; None: a bye or not drawn in it
    bye: bool
    next: rules.RoundMark | None
    next_match: Match | None
    next_bye: bool

    def _other(self, match: Match | None) -> Team | None:
        if match is None:
            return None
        return match.team_b if match.team_a_id == self.team.pk else match.team_a

    @property
    def opponent(self) -> Team | None:
        return self._other(self.match)

    @property
    def next_opponent(self) -> Team | None:
        return self._other(self.next_match)


WHERE_MAX = 8  # teams answered for one search
WHERE_MIN = 2  # letters a search needs: one letter would find nearly everyone


def where_do_i_play(*, tournament: Tournament, query: str) -> list[Whereabouts]:
    """The teams whose name holds `query`, or with a player holding it on the roster
    of the current round or the next one released (rules.md §9: an approved
    substitute from the round he comes in, and not the player he replaced from then
    on), each with its match in the current round and in the next one once released
    (six queries). Before any round is released, the roster of league round 1."""
    query = query.strip()
    if len(query) < WHERE_MIN:
        return []
    wanted_name = query.casefold()
    candidates = list(
        Team.objects.filter(tournament=tournament)
        .filter(
            Q(name__icontains=query)
            | Q(players__name__icontains=query)
            | Q(substitutions__player_in__icontains=query)
        )
        .distinct()
        .order_by("name")[: WHERE_MAX * 4]
    )
    if not candidates:
        return []
    marks = round_marks(tournament=tournament, drafts=False)
    current = rules.current_round(marks)
    following = rules.next_round(marks, current)
    wanted = [m for m in (current, following) if m is not None]
    rounds_now = [(RoundStage(m.stage), m.number) for m in wanted] or [
        (RoundStage.LEAGUE, 1)
    ]
    rosters = rosters_get(
        teams=[t.pk for t in candidates if wanted_name not in t.name.casefold()]
    )

    def plays(team: Team) -> bool:
        if wanted_name in team.name.casefold():
            return True
        players, swaps = rosters[team.pk]
        return any(
            wanted_name in name.casefold()
            for stage, number in rounds_now
            for name in roster_at(players, swaps, stage, number)
        )

    teams = [t for t in candidates if plays(t)][:WHERE_MAX]
    if not teams:
        return []
    ids = [t.pk for t in teams]
    matches: dict[tuple[str, int, int], Match] = {}
    if wanted:
        rounds = Q()
        for m in wanted:
            rounds |= Q(stage=m.stage, round=m.number)
        for match in (
            match_queryset()
            .filter(tournament=tournament)
            .filter(rounds)
            .filter(Q(team_a_id__in=ids) | Q(team_b_id__in=ids))
            .exclude(status=MatchStatus.VOID)
        ):
            for side in (match.team_a_id, match.team_b_id):
                matches[(match.stage, match.round, side)] = match
    byes = set(
        Bye.objects.filter(
            tournament=tournament,
            team_id__in=ids,
            round__in=[m.number for m in wanted if m.stage == Stage.LEAGUE],
        ).values_list("team_id", "round")
    )

    def at(mark, team):
        if mark is None:
            return None, False
        match = matches.get((mark.stage, mark.number, team.pk))
        bye = mark.stage == Stage.LEAGUE and (team.pk, mark.number) in byes
        return match, bye

    out = []
    for team in teams:
        match, bye = at(current, team)
        later, later_bye = at(following, team)
        out.append(Whereabouts(team, current, match, bye, following, later, later_bye))
    return out
