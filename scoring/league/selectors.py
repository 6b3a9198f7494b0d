"""Reads of the league: rounds and their pairings, the stored draw and whether it may
be redrawn, the standings (summed in SQL, ranked by domain/standings.py) and a team's
matches.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.db.models import Count, F, Q, QuerySet

from scoring.domain import draw as draw_rules
from scoring.models import Bye, LeagueDraw, LeagueRound
from tournament.domain.errors import Words, filled, marked
from tournament.domain.types import TeamStatus, TournamentStatus
from tournament.models import Team, Tournament

from ..domain import desk as desk_rules
from ..domain import standings as ranking
from ..domain.forfeits import Absent
from ..domain.rules import FINAL_STATUSES, MatchStatus, Side, Stage
from ..models import Deal, Match, Penalty, SheetAction, SheetChange, StandingsLot
from ..sheets.selectors import (
    DECIDED,
    SheetView,
    draft_rounds,
    match_list,
    sheet_settle,
)

# The league draw and its rounds
# ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundView:
    number: int
    stage: str
    released: bool
    matches: list[Match]
    byes: list[Team]


def round_list(
    *,
    tournament: Tournament,
    drafts: bool,
    team: int | None = None,
    only: tuple[str, int] | None = None,
) -> list[RoundView]:
    """Rounds in order with their matches and byes (three queries, any size), or
    the one round `only` names (stage, number). Rounds of matches set up by hand,
    without a drawn round, count as released."""
    rounds = {r.number: r for r in LeagueRound.objects.filter(tournament=tournament)}
    matches = match_list(tournament=tournament, team=team, drafts=drafts)
    byes = Bye.objects.filter(tournament=tournament).select_related("team__section")
    if team is not None:
        byes = byes.filter(team_id=team)
    if only is not None:
        stage, number = only
        matches = matches.filter(stage=stage, round=number)
        byes = byes.filter(round=number) if stage == Stage.LEAGUE else byes.none()
        rounds = {k: v for k, v in rounds.items() if (Stage.LEAGUE, k) == only}
    grouped: dict[tuple[str, int], RoundView] = {}

    def view(stage: str, number: int) -> RoundView:
        key = (stage, number)
        if key not in grouped:
            drawn = rounds.get(number) if stage == Stage.LEAGUE else None
            released = drawn is None or drawn.released
            grouped[key] = RoundView(number, stage, released, [], [])
        return grouped[key]

    if team is None:  # drawn rounds show even before anything is in them
        for number in rounds:
            view(Stage.LEAGUE.value, number)
    for match in matches:
        view(match.stage, match.round).matches.append(match)
    for bye in byes:
        view(Stage.LEAGUE.value, bye.round).byes.append(bye.team)
    stages = [s.value for s in Stage]
    return [
        grouped[key]
        for key in sorted(grouped, key=lambda k: (stages.index(k[0]), k[1]))
        if drafts or grouped[key].released
    ]


@dataclass(frozen=True)
class TeamRound:
    """One round of one team as its page shows it: a match seen from its side, or
    its bye."""

    round: RoundView
    match: Match | None
    side: str = ""  # "A" or "B"
    opponent: Team | None = None
    own: int = 0
    theirs: int = 0
    result: str = ""  # "won", "lost", "tied", or "" while not played

    @property
    def bye(self) -> bool:
        return self.match is None


def team_rounds(*, tournament: Tournament, team: int, drafts: bool) -> list[TeamRound]:
    """A team's rounds in order, each match from the team's side (three queries)."""
    rows = []
    for rnd in round_list(tournament=tournament, drafts=drafts, team=team):
        rows += [TeamRound(rnd, None) for _ in rnd.byes]
        for m in rnd.matches:
            side = Side.A if m.team_a_id == team else Side.B
            own, theirs = (
                (m.total_a, m.total_b) if side is Side.A else (m.total_b, m.total_a)
            )
            played = m.status in DECIDED
            result = (
                ("won" if m.winner == side else "lost" if m.winner else "tied")
                if played
                else ""
            )
            opponent = m.team_b if side is Side.A else m.team_a
            rows.append(TeamRound(rnd, m, side.value, opponent, own, theirs, result))
    return rows


def draw_current(*, tournament: Tournament) -> LeagueDraw | None:
    return (
        LeagueDraw.objects.filter(tournament=tournament, current=True)
        .select_related("created_by")
        .first()
    )


def draw_earlier(*, tournament: Tournament) -> list[LeagueDraw]:
    return list(LeagueDraw.objects.filter(tournament=tournament, current=False))


def league_teams(*, tournament: Tournament) -> QuerySet[Team]:
    """The teams of the league: every team but those absent from a check-in draw
    (rules.md §9: kept on record, not drawn)."""
    return Team.objects.filter(tournament=tournament).exclude(status=TeamStatus.ABSENT)


def draw_entrants(*, tournament: Tournament) -> QuerySet[Team]:
    """The teams a draw made now takes: the checked-in ones when the tournament
    requires check-in, else every team (rules.md §9)."""
    teams = Team.objects.filter(tournament=tournament)
    if tournament.check_in_required:
        teams = teams.filter(checked_in_at__isnull=False)
    return teams


def draw_teams(
    *, tournament: Tournament, entrants: bool = False
) -> list[draw_rules.DrawTeam]:
    """The teams as the draw sees them (id and section name): of the league drawn,
    or (`entrants`) those a draw made now would take."""
    teams = (draw_entrants if entrants else league_teams)(tournament=tournament)
    return [
        draw_rules.DrawTeam(pk, section)
        for pk, section in teams.values_list("pk", "section__name")
    ]


def draw_stored(*, tournament: Tournament) -> list[draw_rules.DrawRound]:
    """The league as stored (matches and byes), as the checker reads a draw."""
    pairings: dict[int, list[draw_rules.Pairing]] = {}
    for number, table, a, b in Match.objects.filter(
        tournament=tournament, stage=Stage.LEAGUE
    ).values_list("round", "table", "team_a_id", "team_b_id"):
        pairings.setdefault(number, []).append(draw_rules.Pairing(table, a, b))
    byes = dict(
        Bye.objects.filter(tournament=tournament).values_list("round", "team_id")
    )
    numbers = sorted(set(pairings) | set(byes))
    return [
        draw_rules.DrawRound(n, tuple(pairings.get(n, ())), byes.get(n))
        for n in numbers
    ]


def league_first_result(*, tournament: Tournament) -> SheetChange | None:
    """The first change of a league sheet past its creation: a result was entered,
    and the draw is locked (rules.md §5)."""
    return (
        SheetChange.objects.filter(
            match__tournament=tournament, match__stage=Stage.LEAGUE
        )
        .exclude(action=SheetAction.MATCH_CREATE)
        .select_related("match__team_a", "match__team_b")
        .order_by("pk")
        .first()
    )


def draw_locked_reason(*, tournament: Tournament) -> Words | None:
    """Why the league cannot be drawn (again) now, or None when it can."""
    if tournament.status not in (
        TournamentStatus.REGISTRATION,
        TournamentStatus.LEAGUE,
    ):
        return filled(
            marked("%(tournament)s is past its league (status %(status)s)"),
            tournament=tournament.name,
            status=tournament.status,
        )
    result = league_first_result(tournament=tournament)
    if result is not None:
        return filled(
            marked(
                "the league has results (the first on the sheet of %(match)s); a "
                "draw is locked once a result is entered"
            ),
            match=str(result.match),
        )
    return None


@dataclass(frozen=True)
class DrawState:
    """Everything the draw page and API show: the field, why a draw cannot be made
    now, and the stored draw with the checker's verdict and its spread."""

    tournament: Tournament
    sections: list[draw_rules.SectionSize]
    problems: list[draw_rules.DrawError]
    locked_reason: str | None
    draw: LeagueDraw | None
    earlier: list[LeagueDraw]
    check: list[str]
    spread: draw_rules.Spread | None
    released: int  # rounds released so far

    @property
    def all_released(self) -> bool:
        return self.draw is not None and self.released >= self.draw.rounds


def draw_state(*, tournament: Tournament) -> DrawState:
    # The league's teams and those a draw now would take, from one read.
    teams, entrants = [], []
    for pk, section, status, checked_in_at in Team.objects.filter(
        tournament=tournament
    ).values_list("pk", "section__name", "status", "checked_in_at"):
        if status != TeamStatus.ABSENT:
            teams.append(draw_rules.DrawTeam(pk, section))
        if checked_in_at is not None or not tournament.check_in_required:
            entrants.append(draw_rules.DrawTeam(pk, section))
    rounds = tournament.league_rounds
    draw = draw_current(tournament=tournament)
    check: list[str] = []
    spread = None
    if draw is not None:
        stored = draw_stored(tournament=tournament)
        check = draw_rules.check_draw(teams, draw.rounds, stored)
        spread = draw_rules.draw_spread(teams, stored)
    return DrawState(
        tournament=tournament,
        sections=draw_rules.section_sizes(entrants),
        problems=draw_rules.draw_problems(entrants, rounds),
        locked_reason=draw_locked_reason(tournament=tournament),
        draw=draw,
        earlier=draw_earlier(tournament=tournament),
        check=check,
        spread=spread,
        released=LeagueRound.objects.filter(
            tournament=tournament, released_at__isnull=False
        ).count(),
    )


# Standings
# ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingsTeam:
    id: int
    name: str
    section_id: int
    section: str


@dataclass(frozen=True)
class StandingRow:
    """A row of the standings: the team, its standing, whether it shares its rank,
    and whether it is inside the qualifying line (None: equal with teams across the
    line, and no lot drawn yet)."""

    standing: ranking.Standing
    team: StandingsTeam
    shared: bool
    qualifies: bool | None
    line: bool = False  # the qualifying line is drawn under this row


@dataclass(frozen=True)
class LeagueProgress:
    matches: int  # league matches drawn or set up
    decided: int  # completed or confirmed: they count
    confirmed: int
    live: int  # on a sheet now (in progress)
    draft_rounds: int  # drawn rounds not released: their matches do not count yet

    @property
    def final(self) -> bool:
        """Every league match confirmed and every round released: the standings
        are the league's result."""
        return (
            self.matches > 0
            and self.confirmed == self.matches
            and not self.draft_rounds
        )


@dataclass(frozen=True)
class Standings:
    tournament: Tournament
    rows: list[StandingRow]  # every team, or one section's (`section`)
    qualifiers: int
    progress: LeagueProgress
    lot: StandingsLot | None
    to_decide: list[list[int]]  # groups of equal teams a lot must order, team ids
    section: int | None = None

    @property
    def final(self) -> bool:
        return self.progress.final

    @property
    def provisional(self) -> bool:
        return any(r.standing.provisional for r in self.rows)

    @property
    def live(self) -> bool:
        """The league is being played: the page keeps asking for news."""
        return self.progress.matches > 0 and not self.final

    def row_of(self, team: int) -> StandingRow | None:
        return next((r for r in self.rows if r.team.id == team), None)


def _counted_matches(tournament: Tournament) -> QuerySet[Match]:
    """League matches that count: decided, in a released round (or set up by hand)."""
    return Match.objects.filter(
        tournament=tournament, stage=Stage.LEAGUE, status__in=DECIDED
    ).exclude(round__in=draft_rounds(tournament))


def league_results(*, tournament: Tournament) -> list[ranking.MatchResult]:
    """Every counted league match as the ranking reads it: the totals and the winner
    its sheet stores. Every write to a sheet recomputes them with the rules engine
    (rules.score_sheet, in the same transaction), so they are the sheet's own, and
    the standings read one row per match instead of summing every deal: one query,
    whatever the size (docs/standings.md)."""
    counted = _counted_matches(tournament).order_by()
    return [
        ranking.MatchResult(
            team_a,
            team_b,
            total_a,
            total_b,
            Side(winner) if winner else None,
            confirmed=status in FINAL_STATUSES,
            absent=Absent(absent) if absent else None,
        )
        for team_a, team_b, total_a, total_b, winner, status, absent in (
            counted.values_list(
                "team_a_id",
                "team_b_id",
                "total_a",
                "total_b",
                "winner",
                "status",
                "forfeit_absent",
            )
        )
    ]


def league_progress(*, tournament: Tournament) -> LeagueProgress:
    """How far the league is (two queries)."""
    counts = Match.objects.filter(tournament=tournament, stage=Stage.LEAGUE).aggregate(
        matches=Count("pk"),
        decided=Count("pk", filter=Q(status__in=DECIDED)),
        confirmed=Count("pk", filter=Q(status__in=FINAL_STATUSES)),
        live=Count("pk", filter=Q(status=MatchStatus.IN_PROGRESS)),
    )
    return LeagueProgress(**counts, draft_rounds=draft_rounds(tournament).count())


def standings_get(*, tournament: Tournament, section: int | None = None) -> Standings:
    """The league's standings (rules.md §5), whole or one section's rows with their
    places in the whole league. Six queries, whatever the size: teams, byes, the
    counted matches' stored results, the lot, and the league's progress (2)."""
    teams = {}
    withdrawn = set()
    for pk, name, section_id, section_name, status in league_teams(
        tournament=tournament
    ).values_list("pk", "name", "section_id", "section__name", "status"):
        teams[pk] = StandingsTeam(pk, name, section_id, section_name)
        if status == TeamStatus.WITHDRAWN:
            withdrawn.add(pk)
    # rules.md §9: a team that withdrew has no bye from its withdrawal on (chosen
    # here: it is not there to be given the round).
    byes = (
        Bye.objects.filter(tournament=tournament)
        .exclude(round__in=draft_rounds(tournament))
        .exclude(
            team__status=TeamStatus.WITHDRAWN,
            round__gte=F("team__withdrawn_from_round"),
        )
    )
    standings = ranking.rank_teams(
        teams,
        league_results(tournament=tournament),
        byes.order_by().values_list("team_id", flat=True),
        withdrawn,
    )
    places = tournament.qualifiers
    lot = (
        StandingsLot.objects.filter(tournament=tournament)
        .select_related("drawn_by")
        .first()
    )
    progress = league_progress(tournament=tournament)
    # rules.md §9: lots wait for the end; until then equal teams share a rank.
    settled = ranking.settle(
        standings,
        places=places,
        final=progress.final,
        seed=lot.seed if lot is not None else None,
    )
    standings, to_decide, qualifies = (
        settled.rows,
        settled.to_decide,
        settled.qualifies,
    )
    shared = {s.team for group in ranking.equal_groups(standings) for s in group}
    rows = [
        StandingRow(
            standing=s,
            team=teams[s.team],
            shared=s.team in shared,
            qualifies=qualifies[s.team],
        )
        for s in standings
        if section is None or teams[s.team].section_id == section
    ]
    # The line under the last qualifier (or the last team tied across the line):
    # a withdrawn team inside the qualifying places draws none above itself.
    last = max(
        (n for n, row in enumerate(rows) if row.qualifies is not False), default=None
    )
    if last is not None and last < len(rows) - 1:
        rows[last] = replace(rows[last], line=True)
    return Standings(
        tournament=tournament,
        rows=rows,
        qualifiers=places,
        progress=progress,
        lot=lot,
        to_decide=to_decide,
        section=section,
    )


@dataclass(frozen=True)
class TeamMatch:
    """One of a team's rounds with, for a match, its whole sheet."""

    round: TeamRound
    sheet: SheetView | None

    @property
    def open(self) -> bool:
        """A match of the team whose sheet may still change (not confirmed)."""
        return self.sheet is not None and not self.sheet.match.locked


def team_matches_shown(*, tournament: Tournament, team: int) -> list[tuple]:
    """What a team's page shows of its own matches, league and knockout, as one
    plain query (its live part's ETag, with the standings' fingerprint): a deal, a
    penalty, a confirmation or a dispute changes a row."""
    return list(
        Match.objects.filter(Q(team_a=team) | Q(team_b=team), tournament=tournament)
        .order_by("pk")
        .values_list(
            "pk",
            "version",
            "status",
            "updated_at",
            "open_disputes",
            "confirmed_a_version",
            "confirmed_b_version",
        )
    )


def team_sheets(*, tournament: Tournament, team: int, drafts: bool) -> list[TeamMatch]:
    """A team's rounds in order, each match with every deal and penalty of its sheet
    (five queries, however many matches and deals)."""
    rounds = team_rounds(tournament=tournament, team=team, drafts=drafts)
    matches = [r.match for r in rounds if r.match is not None]
    deals: dict[int, list[Deal]] = {m.pk: [] for m in matches}
    for deal in Deal.objects.filter(match__in=matches).order_by("match", "number"):
        deals[deal.match_id].append(deal)
    penalties: dict[int, list[Penalty]] = {m.pk: [] for m in matches}
    for penalty in (
        Penalty.objects.filter(deal__match__in=matches)
        .select_related("deal")
        .order_by("deal__number", "pk")
    ):
        penalties[penalty.deal.match_id].append(penalty)
    rows = []
    for r in rounds:
        view = None
        if r.match is not None:
            d, p = deals[r.match.pk], penalties[r.match.pk]
            view = SheetView(r.match, d, p, *sheet_settle(r.match, d, p))
        rows.append(TeamMatch(r, view))
    return rows


# Every round at a glance: its tables and how many are settled (the matches list,
# the desk, the venue screen)
# ----------------------------------------------------------------------------------

STAGES = [s.value for s in Stage]


def round_marks(*, tournament: Tournament, drafts: bool) -> list[desk_rules.RoundMark]:
    """Every round in playing order with its tables and how many are settled (two
    queries). Without `drafts`, rounds not released are left out."""
    released = dict(
        LeagueRound.objects.filter(tournament=tournament).values_list(
            "number", "released_at"
        )
    )
    rows = (
        Match.objects.filter(tournament=tournament)
        .values("stage", "round")
        .annotate(
            tables=Count("pk", filter=~Q(status=MatchStatus.VOID)),
            final=Count("pk", filter=Q(status__in=FINAL_STATUSES)),
            decided=Count("pk", filter=Q(status__in=DECIDED)),
        )
        .order_by()
    )
    marks = {
        (r["stage"], r["round"]): desk_rules.RoundMark(
            r["stage"],
            r["round"],
            # a league round set up by hand, without a drawn round, is released
            r["stage"] != Stage.LEAGUE
            or r["round"] not in released
            or released[r["round"]] is not None,
            r["tables"],
            r["final"],
            r["decided"],
            released.get(r["round"]) if r["stage"] == Stage.LEAGUE else None,
        )
        for r in rows
    }
    for number, at in released.items():  # a drawn round shows before its matches do
        key = (Stage.LEAGUE.value, number)
        marks.setdefault(
            key, desk_rules.RoundMark(key[0], number, at is not None, 0, 0, 0, at)
        )
    ordered = sorted(marks.values(), key=lambda m: (STAGES.index(m.stage), m.number))
    return [m for m in ordered if drafts or m.released]


def round_pick(
    marks: list[desk_rules.RoundMark], wanted: str | None
) -> desk_rules.RoundMark | None:
    """The round named `<stage>-<number>` in a page's address, else the current one."""
    for mark in marks:
        if wanted == f"{mark.stage}-{mark.number}":
            return mark
    return desk_rules.current_round(marks)
