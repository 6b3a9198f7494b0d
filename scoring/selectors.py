"""Reads of score sheets (writes are in services.py).

A sheet's awards and totals are stored on its rows, recomputed on every write; the
running totals and the checkpoints after every sixth deal are computed on read from
the same rows by rules.score_sheet, which is cheap (a match has at most 99 deals).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from itertools import groupby, pairwise

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Sum
from django.utils import timezone

from tournament.domain import draw as draw_rules
from tournament.domain.rulesets import ruleset_get
from tournament.domain.types import Role, TournamentStatus
from tournament.models import Bye, LeagueDraw, LeagueRound, Membership, Team, Tournament
from tournament.selectors import tournament_roles

from . import exports
from .domain import rules, tiebreak
from .domain import standings as ranking
from .domain.rules import MatchStatus, Side, Stage
from .models import Deal, Match, Penalty, SheetAction, SheetChange, StandingsLot
from .signals import export_bracket

DEAL_VALUE_FIELDS = ("number", "declarer", "value", "trump", "level", "taken")
MATCH_RELATED = ("tournament", "team_a__section", "team_b__section")
# Sheets whose result is decided: they count in the standings.
DECIDED = (MatchStatus.COMPLETED, MatchStatus.CONFIRMED)
# Who sees a drawn round before the organizer releases it.
DRAFT_READERS = frozenset({Role.ORGANIZER, Role.SCORER})


def sees_drafts(roles: frozenset[Role]) -> bool:
    return bool(roles & DRAFT_READERS)


def _draft_rounds(tournament) -> QuerySet[LeagueRound]:
    return LeagueRound.objects.filter(
        tournament=tournament, released_at__isnull=True
    ).values("number")


def deal_value(deal: Deal) -> rules.Deal:
    return rules.Deal(
        number=deal.number,
        declarer=Side(deal.declarer),
        value=deal.value,
        trump=rules.Trump(deal.trump),
        level=rules.Level(deal.level),
        taken=deal.taken,
    )


def penalty_value(penalty: Penalty, *, deal_number: int, key: int) -> rules.Penalty:
    kind = rules.PenaltyKind(penalty.kind)
    return rules.Penalty(
        key=key,
        deal=deal_number,
        offender=Side(penalty.offender),
        kind=kind,
        points=penalty.points if kind is rules.PenaltyKind.CONDUCT else None,
    )


def sheet_settle(
    match: Match, deals: list[Deal], penalties: list[Penalty]
) -> tuple[rules.Sheet, tiebreak.Tiebreak | None]:
    """The domain's sheet for stored (or about to be stored) rows, and for a knockout
    match its tie-break (rules.md §6), which decides when the sheet is complete.

    A penalty names a saved deal; one without a primary key yet is the newest entry
    and sorts last within its deal.
    """
    number_of = {d.pk: d.number for d in deals if d.pk is not None}
    values = [
        penalty_value(p, deal_number=number_of[p.deal_id], key=p.pk or 10**9)
        for p in penalties
    ]
    knockout = match.stage == Stage.KNOCKOUT
    sheet = rules.score_sheet(
        ruleset_get(match.tournament.ruleset),
        [deal_value(d) for d in deals],
        values,
        deals_scheduled=match.deals_scheduled,
        knockout=knockout,
    )
    if not knockout or match.deals_scheduled is None:
        return sheet, None  # the tables format has no ties (rules.md §8)
    settled = tiebreak.settle(
        sheet, deals_scheduled=match.deals_scheduled, toss=match.toss
    )
    return tiebreak.apply(sheet, settled), settled


@dataclass(frozen=True)
class SheetView:
    match: Match
    deals: list[Deal]
    penalties: list[Penalty]
    sheet: rules.Sheet
    tiebreak: tiebreak.Tiebreak | None = None

    def rows(self) -> list[tuple[Deal, rules.SheetRow, list[Penalty]]]:
        """Each deal with its computed row and its penalties, in deal order."""
        by_deal: dict[int, list[Penalty]] = {}
        for p in self.penalties:
            by_deal.setdefault(p.deal_id, []).append(p)
        row_of = {r.number: r for r in self.sheet.rows}
        return [(d, row_of[d.number], by_deal.get(d.pk, [])) for d in self.deals]

    def checkpoints(self) -> list[rules.SheetRow]:
        return [r for r in self.sheet.rows if r.checkpoint]

    def next_number(self) -> int | None:
        """The first scheduled deal not on the sheet (tables: the next number)."""
        if self.sheet.missing:
            return self.sheet.missing[0]
        if self.match.deals_scheduled is None and not self.sheet.complete:
            return (self.deals[-1].number + 1) if self.deals else 1
        return None

    @property
    def confirmed_a(self) -> bool:
        return self.confirmed(Side.A)

    @property
    def confirmed_b(self) -> bool:
        return self.confirmed(Side.B)

    def confirmable_by(self, *, roles: frozenset[Role], sides: frozenset[Side]) -> bool:
        """Whether a person with these roles, captain of these sides, may confirm now:
        a completed sheet, for an organizer or a captain who has not confirmed it."""
        if self.match.status != MatchStatus.COMPLETED:
            return False
        return Role.ORGANIZER in roles or any(not self.confirmed(s) for s in sides)

    def confirmed(self, side: Side) -> bool:
        """This side's captain confirmed the sheet as it is now."""
        got = (
            self.match.confirmed_a_version
            if side is Side.A
            else self.match.confirmed_b_version
        )
        return got == self.match.version


def sheet_read(*, match: Match) -> SheetView:
    """A match's deals and penalties (two queries) and its computed sheet."""
    deals = list(
        Deal.objects.filter(match=match).select_related("entered_by").order_by("number")
    )
    penalties = list(
        Penalty.objects.filter(deal__match=match)
        .select_related("entered_by")
        .order_by("deal__number", "pk")
    )
    return SheetView(match, deals, penalties, *sheet_settle(match, deals, penalties))


def match_queryset() -> QuerySet[Match]:
    return Match.objects.select_related(*MATCH_RELATED)


def match_get_visible(*, user, pk: int) -> tuple[Match, frozenset[Role]] | None:
    """The match and the caller's roles in its tournament, or None if hidden from the
    caller (an unpublished tournament without a role in it)."""
    draft = LeagueRound.objects.filter(
        tournament=OuterRef("tournament"),
        number=OuterRef("round"),
        released_at__isnull=True,
    )
    match = match_queryset().annotate(draft=Exists(draft)).filter(pk=pk).first()
    if match is None:
        return None
    roles = tournament_roles(user=user, tournament=match.tournament)
    if not match.tournament.published and not roles:
        return None
    if match.stage == Stage.LEAGUE and match.draft and not sees_drafts(roles):
        return None  # a round the organizer has not released yet
    return match, roles


def captain_sides(*, user, match: Match) -> frozenset[Side]:
    """The sides of `match` whose captain `user` is."""
    if not user.is_authenticated:
        return frozenset()
    teams = set(
        Membership.objects.filter(
            tournament_id=match.tournament_id,
            user=user,
            role=Role.CAPTAIN,
            team_id__in=[match.team_a_id, match.team_b_id],
        ).values_list("team_id", flat=True)
    )
    return frozenset(
        side
        for side, team_id in ((Side.A, match.team_a_id), (Side.B, match.team_b_id))
        if team_id in teams
    )


def match_list(
    *,
    tournament: Tournament,
    round: int | None = None,
    team: int | None = None,
    stage: str | None = None,
    drafts: bool = True,
) -> QuerySet[Match]:
    """`drafts=False` leaves out the league rounds not released yet."""
    qs = match_queryset().filter(tournament=tournament)
    if not drafts:
        qs = qs.exclude(stage=Stage.LEAGUE, round__in=_draft_rounds(tournament))
    if round is not None:
        qs = qs.filter(round=round)
    if team is not None:
        qs = qs.filter(Q(team_a_id=team) | Q(team_b_id=team))
    if stage:
        qs = qs.filter(stage=stage)
    return qs.order_by("stage", "round", "table")


def sheet_change_list(*, match: Match) -> QuerySet[SheetChange]:
    return SheetChange.objects.filter(match=match).order_by("pk")


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
    *, tournament: Tournament, drafts: bool, team: int | None = None
) -> list[RoundView]:
    """Rounds in order with their matches and byes (three queries, any size).
    Rounds of matches set up by hand, without a drawn round, count as released."""
    rounds = {r.number: r for r in LeagueRound.objects.filter(tournament=tournament)}
    matches = match_list(tournament=tournament, team=team, drafts=drafts)
    byes = Bye.objects.filter(tournament=tournament).select_related("team__section")
    if team is not None:
        byes = byes.filter(team_id=team)
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


def draw_teams(*, tournament: Tournament) -> list[draw_rules.DrawTeam]:
    """The tournament's teams as the draw sees them: id and section name."""
    return [
        draw_rules.DrawTeam(pk, section)
        for pk, section in Team.objects.filter(tournament=tournament).values_list(
            "pk", "section__name"
        )
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


def draw_locked_reason(*, tournament: Tournament) -> str | None:
    """Why the league cannot be drawn (again) now, or None when it can."""
    if tournament.status not in (
        TournamentStatus.REGISTRATION,
        TournamentStatus.LEAGUE,
    ):
        return f"{tournament.name} is past its league (status {tournament.status})"
    result = league_first_result(tournament=tournament)
    if result is not None:
        return (
            f"the league has results (the first on the sheet of {result.match}); a "
            "draw is locked once a result is entered (rules.md §5)"
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
    teams = draw_teams(tournament=tournament)
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
        sections=draw_rules.section_sizes(teams),
        problems=draw_rules.draw_problems(teams, rounds),
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
    ).exclude(round__in=_draft_rounds(tournament))


def league_results(*, tournament: Tournament) -> list[ranking.MatchResult]:
    """Every counted league match as the ranking reads it, summed from its deals
    and penalties in SQL: three queries whatever the size (the matches; the deals
    and the penalties, each summed per match and side). Grouping the deals by match
    alone, without the match's columns, halves that aggregate on PostgreSQL."""
    counted = _counted_matches(tournament)
    deals = {
        match: (a, b, won_a, won_b)
        for match, a, b, won_a, won_b in Deal.objects.filter(match__in=counted)
        .values("match_id")
        .annotate(
            a=Sum("award", filter=Q(award_to=Side.A), default=0),
            b=Sum("award", filter=Q(award_to=Side.B), default=0),
            won_a=Count("pk", filter=Q(award_to=Side.A)),
            won_b=Count("pk", filter=Q(award_to=Side.B)),
        )
        .order_by()
        .values_list("match_id", "a", "b", "won_a", "won_b")
    }
    # A penalty's points go to the side that did not offend (rules.md §3).
    penalties = {
        match: (a, b)
        for match, a, b in Penalty.objects.filter(deal__match__in=counted)
        .values("deal__match_id")
        .annotate(
            a=Sum("points", filter=Q(offender=Side.B), default=0),
            b=Sum("points", filter=Q(offender=Side.A), default=0),
        )
        .order_by()
        .values_list("deal__match_id", "a", "b")
    }
    rules_of = ruleset_get(tournament.ruleset)
    results = []
    for pk, team_a, team_b, status, deals_scheduled in counted.order_by().values_list(
        "pk", "team_a_id", "team_b_id", "status", "deals_scheduled"
    ):
        a, b, won_a, won_b = deals.get(pk, (0, 0, 0, 0))
        pa, pb = penalties.get(pk, (0, 0))
        results.append(
            ranking.league_result(
                rules_of,
                team_a=team_a,
                team_b=team_b,
                received_a=a + pa,
                received_b=b + pb,
                won_a=won_a,
                won_b=won_b,
                tables=deals_scheduled is None,
                confirmed=status == MatchStatus.CONFIRMED,
            )
        )
    return results


def league_progress(*, tournament: Tournament) -> LeagueProgress:
    """How far the league is (two queries)."""
    counts = Match.objects.filter(tournament=tournament, stage=Stage.LEAGUE).aggregate(
        matches=Count("pk"),
        decided=Count("pk", filter=Q(status__in=DECIDED)),
        confirmed=Count("pk", filter=Q(status=MatchStatus.CONFIRMED)),
        live=Count("pk", filter=Q(status=MatchStatus.IN_PROGRESS)),
    )
    return LeagueProgress(**counts, draft_rounds=_draft_rounds(tournament).count())


def standings_get(*, tournament: Tournament, section: int | None = None) -> Standings:
    """The league's standings (rules.md §5), whole or one section's rows with their
    places in the whole league. Eight queries, whatever the size: teams, byes, the
    matches, the deal and penalty sums, the lot, and the league's progress (2)."""
    teams = {
        pk: StandingsTeam(pk, name, section_id, section_name)
        for pk, name, section_id, section_name in Team.objects.filter(
            tournament=tournament
        ).values_list("pk", "name", "section_id", "section__name")
    }
    byes = Bye.objects.filter(tournament=tournament).exclude(
        round__in=_draft_rounds(tournament)
    )
    standings = ranking.rank_teams(
        teams,
        league_results(tournament=tournament),
        byes.order_by().values_list("team_id", flat=True),
    )
    places = tournament.qualifiers
    to_decide = ranking.places_to_decide(standings, places)
    lot = (
        StandingsLot.objects.filter(tournament=tournament)
        .select_related("drawn_by")
        .first()
    )
    if lot is not None:
        standings = ranking.draw_lots(standings, seed=lot.seed, places=places)
    qualifies = ranking.qualifying(standings, places)
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
    rows = [
        replace(row, line=True)
        if row.qualifies is not False and following.qualifies is False
        else row
        for row, following in pairwise(rows)
    ] + rows[-1:]
    return Standings(
        tournament=tournament,
        rows=rows,
        qualifiers=places,
        progress=league_progress(tournament=tournament),
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


# The tournament workbook (docs/exports.md)
# ----------------------------------------------------------------------------------


def _local(moment):
    """A naive local time: Excel cells have no time zone."""
    return timezone.localtime(moment).replace(tzinfo=None) if moment else None


def _teams_sheet(tournament: Tournament) -> exports.TableSheet:
    players = tournament.players_per_team

    def rows():
        teams = (
            Team.objects.filter(tournament=tournament)
            .select_related("section")
            .prefetch_related("players")
            .order_by("section__name", "name")
        )
        for team in teams:
            names = {p.position: p.name for p in team.players.all()}
            yield [
                team.name,
                team.section.name,
                team.captain_name,
                team.captain_city,
                team.captain_state,
                team.captain_country,
                *(names.get(n, "") for n in range(2, players + 1)),
                team.pk,
            ]

    return exports.TableSheet("Teams", exports.teams_columns(players), rows())


def _draw_sheet(tournament: Tournament) -> exports.TableSheet:
    draw = draw_current(tournament=tournament)

    def rows():
        released = {
            r.number: r.released
            for r in LeagueRound.objects.filter(tournament=tournament)
        }
        matches = (
            Match.objects.filter(tournament=tournament, stage=Stage.LEAGUE)
            .select_related("team_a__section", "team_b__section")
            .order_by("round", "table", "pk")
        )
        byes: dict[int, list[Team]] = {}
        for bye in Bye.objects.filter(tournament=tournament).select_related(
            "team__section"
        ):
            byes.setdefault(bye.round, []).append(bye.team)
        shown: set[int] = set()

        def bye_rows(upto: int):
            """The byes of every round before `upto` not listed yet."""
            for number in sorted(r for r in byes if r < upto and r not in shown):
                shown.add(number)
                for team in sorted(byes[number], key=lambda t: t.name):
                    yield [
                        number,
                        None,
                        team.name,
                        team.section.name,
                        "(bye)",
                        None,
                        released.get(number, True),
                        "bye",
                        *([None] * 5),
                    ]

        for m in matches:
            yield from bye_rows(m.round)  # a round's byes follow its last table
            winner = {"A": m.team_a.name, "B": m.team_b.name}.get(m.winner)
            played = m.status != MatchStatus.SCHEDULED
            yield [
                m.round,
                m.table,
                m.team_a.name,
                m.team_a.section.name,
                m.team_b.name,
                m.team_b.section.name,
                released.get(m.round, True),
                m.status,
                m.total_a if played else None,
                m.total_b if played else None,
                winner,
                _local(m.confirmed_at),
                m.pk,
            ]
        yield from bye_rows(10**6)

    note = (
        f"Draw {draw.number} ({draw.algorithm}, seed {draw.seed})"
        if draw is not None
        else "The league is not drawn yet."
    )
    return exports.TableSheet("Draw", exports.DRAW_COLUMNS, rows(), note=note)


def _standings_sheet(tournament: Tournament) -> exports.TableSheet:
    standings = standings_get(tournament=tournament)
    p = standings.progress
    if standings.final:
        note = "Final: every league sheet is confirmed."
    else:
        note = (
            f"Provisional: {p.decided} of {p.matches} league matches decided, "
            f"{p.confirmed} confirmed."
        )
    if standings.lot is not None:
        note += f" Equal places drawn by lot (seed {standings.lot.seed})."

    def qualifies(value):
        return {True: "yes", False: "no"}.get(value, "by lot")

    rows = (
        [
            s.place,
            s.rank,
            row.team.name,
            row.team.section,
            s.played,
            s.won,
            s.tied,
            s.lost,
            s.byes,
            s.r1,
            ranking.shown(s.r2),
            ranking.shown(s.r3),
            ranking.shown(s.r4),
            s.provisional,
            row.shared,
            s.lot,
            qualifies(row.qualifies),
            row.team.id,
        ]
        for row in standings.rows
        for s in (row.standing,)
    )
    return exports.TableSheet("Standings", exports.STANDINGS_COLUMNS, rows, note=note)


def _sheet_blocks(matches: list[Match], progress) -> Iterator[exports.SheetBlock]:
    """Every match's sheet as computed by the rules engine, one match's rows in memory
    at a time (the deals stream from the database in match order)."""
    if not matches:
        return
    penalties: dict[int, list[Penalty]] = {}
    for p in (
        Penalty.objects.filter(deal__match__tournament_id=matches[0].tournament_id)
        .annotate(match_id=F("deal__match_id"))
        .order_by("pk")
    ):
        penalties.setdefault(p.match_id, []).append(p)
    # The deals stream in the workbook's order of matches, so one match's rows are
    # in memory at a time.
    deals = (
        Deal.objects.filter(match__tournament_id=matches[0].tournament_id)
        .only(*DEAL_VALUE_FIELDS, "match_id")
        .order_by("-match__stage", "match__round", "match__table", "match_id", "number")
        .iterator(chunk_size=4000)
    )

    def block(match: Match, rows: list[Deal]) -> exports.SheetBlock:
        own = penalties.get(match.pk, [])
        view = SheetView(match, rows, own, *sheet_settle(match, rows, own))
        return exports.SheetBlock(
            stage=match.stage,
            round=match.round,
            table=match.table,
            match=match.pk,
            team_a=match.team_a.name,
            team_b=match.team_b.name,
            status=match.status,
            deals=[_deal_line(d, r, on_deal) for d, r, on_deal in view.rows()],
        )

    groups = groupby(deals, key=lambda d: d.match_id)
    current = next(groups, None)
    for done, match in enumerate(matches, start=1):
        rows: list[Deal] = []
        if current is not None and current[0] == match.pk:
            rows = list(current[1])
            current = next(groups, None)
        yield block(match, rows)
        progress(done, len(matches))
    if current is not None:
        raise AssertionError(f"deals of match {current[0]} out of the export's order")


def _deal_line(
    deal: Deal, row: rules.SheetRow, penalties: list[Penalty]
) -> exports.DealLine:
    """A deal as the workbook and the paper sheet show it: what was played, and what
    the rules engine gave for it (`row`)."""
    result = row.result
    return exports.DealLine(
        number=deal.number,
        declarer=deal.declarer,
        value=deal.value,
        trump=deal.trump,
        level=deal.level,
        taken=deal.taken,
        made=result.made,
        award_to=result.award_to.value,
        award=result.award,
        awarded_by=result.awarded_by or "",
        received_a=row.received_a,
        received_b=row.received_b,
        total_a=row.total_a,
        total_b=row.total_b,
        penalties=[
            exports.PenaltyLine(
                kind=p.kind,
                offender=p.offender,
                award_to=p.award_to,
                points=p.points,
                warning=p.warning,
                note=p.note,
            )
            for p in penalties
        ],
    )


def export_matches(*, tournament: Tournament) -> list[Match]:
    """The sheets the workbook lists, league first, then the knockout in order."""
    return list(
        Match.objects.filter(tournament=tournament)
        .select_related("tournament", "team_a", "team_b")
        .order_by("-stage", "round", "table", "pk")
    )


def tournament_workbook(
    *, tournament: Tournament, progress=lambda done, total: None, now=None
) -> bytes:
    """The whole tournament as one workbook (API.md Exports): Teams, Draw, Standings,
    Score sheets and Bracket. `progress(done, total)` is told after each score sheet
    written."""
    matches = export_matches(tournament=tournament)
    answers = [
        answer
        for _, answer in export_bracket.send(sender=Tournament, tournament=tournament)
        if answer is not None
    ]
    bracket_rows, bracket_note = answers[0] if answers else ([], "")
    title = tournament.name
    if tournament.starts_on:
        title += f", {tournament.starts_on:%d %b %Y}"
    sheets = [
        _teams_sheet(tournament),
        _draw_sheet(tournament),
        _standings_sheet(tournament),
        exports.TableSheet(
            "Score sheets",
            exports.SCORE_SHEET_COLUMNS,
            exports.score_sheet_rows(_sheet_blocks(matches, progress)),
            note=f"{len(matches)} score sheets, league first.",
        ),
        exports.TableSheet(
            "Bracket",
            exports.BRACKET_COLUMNS,
            bracket_rows,
            note=bracket_note or "The knockout is not seeded yet.",
        ),
    ]
    return exports.tournament_workbook_build(
        title=title, exported_at=_local(now or timezone.now()), sheets=sheets
    )


# Paper score sheets (docs/exports.md)
# ----------------------------------------------------------------------------------


def sheet_printed(view: SheetView) -> exports.PrintedSheet:
    """The paper score sheet of one match: its heading, and whatever it holds."""
    match = view.match
    knockout = match.stage == Stage.KNOCKOUT and match.deals_scheduled is not None
    heading = exports.MatchHeading(
        tournament=match.tournament.name,
        match=match.pk,
        version=match.version,
        stage=match.stage,
        round=match.round,
        table=match.table,
        team_a=match.team_a.name,
        team_b=match.team_b.name,
        deals_scheduled=match.deals_scheduled,
        tiebreak_deals=tiebreak.TIEBREAK_DEALS if knockout else 0,
        toss_winner=match.toss_winner,
        first_dealer=match.first_dealer,
    )
    deals = [_deal_line(d, r, on_deal) for d, r, on_deal in view.rows()]
    numbers = {d.pk: d.number for d in view.deals}
    penalties = [
        exports.PrintedPenalty(
            deal=numbers[p.deal_id],
            offender=p.offender,
            kind=p.kind,
            points=p.points if p.kind == rules.PenaltyKind.CONDUCT else None,
            note=p.note,
        )
        for p in view.penalties
    ]
    return heading, deals, penalties


def sheets_printed(*, matches: list[Match]) -> list[exports.PrintedSheet]:
    """The paper sheets of several matches (a round) in three queries."""
    deals: dict[int, list[Deal]] = {m.pk: [] for m in matches}
    for d in Deal.objects.filter(match__in=matches).order_by("number"):
        deals[d.match_id].append(d)
    penalties: dict[int, list[Penalty]] = {m.pk: [] for m in matches}
    for p in (
        Penalty.objects.filter(deal__match__in=matches)
        .annotate(match_id=F("deal__match_id"))
        .order_by("deal__number", "pk")
    ):
        penalties[p.match_id].append(p)
    return [
        sheet_printed(
            SheetView(
                m,
                deals[m.pk],
                penalties[m.pk],
                *sheet_settle(m, deals[m.pk], penalties[m.pk]),
            )
        )
        for m in matches
    ]
