"""Reads of the knockout: the bracket with its rounds, matches, games and podium."""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.domain.rules import MatchStatus, Side
from scoring.league.selectors import StandingsTeam, standings_get
from scoring.models import Match
from tournament.models import Team, Tournament

from .domain import places as final_places_domain
from .domain import progression
from .domain.series import Series, series_state
from .models import Bracket, Game, KnockoutMatch, Seed


@dataclass
class MatchView:
    match: KnockoutMatch
    games: list[Game]  # live games, in order; voided ones are in `voided`
    seed_a: int | None
    seed_b: int | None
    voided: int = 0

    @property
    def sheet(self) -> Match | None:
        """The sheet being played now, or the last one."""
        return self.games[-1].sheet if self.games else None

    @property
    def series(self) -> Series | None:
        if self.match.best_of == 1:
            return None
        done = [Side(g.sheet.winner) for g in self.games if g.sheet.final]
        return series_state(done, best_of=self.match.best_of)

    @property
    def totals(self) -> tuple[int | None, int | None]:
        """The sheet's totals; for a series, the games each side has won."""
        series = self.series
        if series is not None:
            return series.wins_a, series.wins_b
        sheet = self.sheet
        if sheet is None or sheet.status == MatchStatus.SCHEDULED:
            return None, None  # no deal yet: nothing to show
        return sheet.total_a, sheet.total_b

    @property
    def status(self) -> str:
        """waiting (a team not known yet), scheduled, in_progress, completed (a sheet
        to confirm) or decided."""
        if self.match.winner:
            return "decided"
        sheet = self.sheet
        if sheet is None:
            return "waiting"
        if sheet.final:
            return "in_progress"  # a game of a series is confirmed; the next one waits
        return sheet.status

    def team(self, side: str) -> Team | None:
        return self.match.team_a if side == "A" else self.match.team_b


@dataclass
class RoundView:
    number: int
    name: str
    stage: str
    deals_scheduled: int | None
    matches: list[MatchView]
    byes: list[Seed] = field(default_factory=list)


@dataclass
class BracketView:
    tournament: Tournament
    bracket: Bracket
    seeds: list[Seed]
    rounds: list[RoundView]
    podium: progression.Podium[Team]
    # domain/places.py: each team's place if the knockout ended now
    knockout_places: dict[Team, int] = field(default_factory=dict)
    final_decided: bool = False

    @property
    def matches(self) -> list[MatchView]:
        return [m for r in self.rounds for m in r.matches]


def bracket_get(*, tournament: Tournament) -> BracketView | None:
    """The knockout of `tournament` in four queries, or None before it is seeded."""
    bracket = (
        Bracket.objects.select_related("lot").filter(tournament=tournament).first()
    )
    if bracket is None:
        return None
    seeds = list(
        Seed.objects.filter(bracket=bracket).select_related("team").order_by("number")
    )
    seed_of = {s.team_id: s.number for s in seeds}
    matches = list(
        KnockoutMatch.objects.filter(bracket=bracket)
        .select_related("team_a", "team_b", "from_a", "from_b")
        .order_by("number")
    )
    games: dict[int, list[Game]] = {m.pk: [] for m in matches}
    voided: dict[int, int] = dict.fromkeys(games, 0)
    for game in (
        Game.objects.filter(knockout_match__bracket=bracket)
        .select_related("sheet")
        .order_by("number", "pk")
    ):
        if game.voided_at is None:
            games[game.knockout_match_id].append(game)
        else:
            voided[game.knockout_match_id] += 1
    views = {
        m.number: MatchView(
            m,
            games[m.pk],
            seed_of.get(m.team_a_id),
            seed_of.get(m.team_b_id),
            voided[m.pk],
        )
        for m in matches
    }
    plan = progression.plan_bracket(bracket.qualifiers)
    seed_rows = {s.number: s for s in seeds}
    rounds = []
    for planned in plan.rounds:
        stage = plan.slot(planned.slots[0]).stage
        rounds.append(
            RoundView(
                number=planned.number,
                name=planned.name,
                stage=stage,
                deals_scheduled=bracket.deals.get(stage),
                matches=[views[n] for n in planned.slots],
                byes=[seed_rows[s] for s in sorted(planned.byes)],
            )
        )
    winners = {m.number: Side(m.winner) for m in matches if m.winner}
    teams = {s.number: s.team for s in seeds}
    filled = progression.fill(plan, teams, winners)
    return BracketView(
        tournament=tournament,
        bracket=bracket,
        seeds=seeds,
        rounds=rounds,
        podium=progression.podium(plan, filled, winners),
        knockout_places=final_places_domain.knockout_places(plan, filled, winners),
        final_decided=final_places_domain.final_decided(plan, winners),
    )


def places_list(
    *, tournament: Tournament, view: BracketView | None = None
) -> list[final_places_domain.FinalPlace[StandingsTeam]]:
    """Every team of the league with its place if the tournament ended now
    (domain/places.py): the knockout's places, then the league's order; before the
    knockout, the league's order alone. `view`: the bracket, when read already.
    Six queries for the standings, and the bracket's four unless given."""
    if view is None:
        view = bracket_get(tournament=tournament)
    standings = standings_get(tournament=tournament)
    league = [
        final_places_domain.LeagueRow(
            row.team.id, row.standing.rank, row.standing.withdrawn
        )
        for row in standings.rows
    ]
    knockout = (
        {team.pk: place for team, place in view.knockout_places.items()}
        if view is not None
        else {}
    )
    teams = {row.team.id: row.team for row in standings.rows}
    return [
        final_places_domain.FinalPlace(
            teams[row.team], row.final_place, row.league_rank
        )
        for row in final_places_domain.final_places(knockout, league)
    ]


def final_places_get(
    *, tournament: Tournament, view: BracketView | None = None
) -> list[final_places_domain.FinalPlace[StandingsTeam]] | None:
    """Every team's final place (RULES.md §6) once the final is decided, best
    first: rows of `team` (its `id` and `name`), `final_place` (shared places repeat
    the number) and `league_rank`; None before (no knockout, or its final not
    decided). Ten queries (six with `view`)."""
    if view is None:
        view = bracket_get(tournament=tournament)
    if view is None or not view.final_decided:
        return None
    return places_list(tournament=tournament, view=view)


# The Bracket sheet of the tournament workbook (scoring/excel/workbook.py)
# ----------------------------------------------------------------------------------


def _tiebreak_deals(sheet: Match) -> str | None:
    """The deals played past the stipulated ones: "19–20" or "19–21"."""
    scheduled = sheet.deals_scheduled
    played = sheet.deals_won_a + sheet.deals_won_b
    if scheduled is None or played <= scheduled:
        return None
    first = scheduled + 1
    return f"{first}" if played == first else f"{first}–{played}"


def _sheet_line(sheet: Match) -> list:
    """Deals, totals and the tie-break of one sheet, in BRACKET_COLUMNS' order from
    "Deals played" to "First dealer"."""
    return [
        sheet.deals_won_a + sheet.deals_won_b,
        _tiebreak_deals(sheet),
        sheet.tiebreak_decided_by,
        sheet.team(sheet.toss_winner).name if sheet.toss_winner else None,
        sheet.team(sheet.first_dealer).name if sheet.first_dealer else None,
    ]


def bracket_export(
    *, tournament: Tournament
) -> tuple[list[list], str, list[list] | None] | None:
    """The Bracket sheet's rows (workbook.BRACKET_COLUMNS) and its note: every match
    with seeds, totals, tie-break (the toss's teams by name) and winner; the final's
    games below it; the byes; the note ends with the podium as far as it is decided.
    Third, the Final places sheet's rows
    (workbook.FINAL_PLACES_COLUMNS: place, team, league rank), None until the final
    is decided."""
    view = bracket_get(tournament=tournament)
    if view is None:
        return None
    rows: list[list] = []
    for rnd in view.rounds:
        for bye in rnd.byes:
            rows.append(
                [rnd.name, None, None, bye.number, bye.team.name, None, "(bye)"]
                + [None] * 8
                + [bye.team.name, "bye", None]
            )
        for mv in rnd.matches:
            m = mv.match
            total_a, total_b = mv.totals
            sheet = mv.sheet
            line = (
                _sheet_line(sheet)
                if sheet is not None and m.best_of == 1
                else [None] * 5
            )
            winner = m.team_a if m.winner == "A" else m.team_b if m.winner else None
            rows.append(
                [
                    rnd.name,
                    m.number,
                    None,
                    mv.seed_a,
                    m.team_a.name if m.team_a_id else None,
                    mv.seed_b,
                    m.team_b.name if m.team_b_id else None,
                    m.deals_scheduled,
                    total_a,
                    total_b,
                    *line,
                    winner.name if winner else None,
                    mv.status,
                    sheet.pk if sheet is not None and m.best_of == 1 else None,
                ]
            )
            if m.best_of > 1:
                for game in mv.games:
                    g = game.sheet
                    played = g.status != MatchStatus.SCHEDULED
                    rows.append(
                        [
                            rnd.name,
                            m.number,
                            game.number,
                            mv.seed_a,
                            m.team_a.name,
                            mv.seed_b,
                            m.team_b.name,
                            g.deals_scheduled,
                            g.total_a if played else None,
                            g.total_b if played else None,
                            *_sheet_line(g),
                            g.team(g.winner).name if g.winner else None,
                            g.status,
                            g.pk,
                        ]
                    )
    # The podium as far as it is decided, in the sheet's note: rows under the
    # matches would sit inside its filter and borrow its columns (issue 52's walk);
    # every place is on the Final places sheet once the final is decided.
    podium = view.podium
    decided = [
        f"{name}: {team.name}"
        for name, team in (
            ("Champion", podium.champion),
            ("runner-up", podium.runner_up),
            ("second runner-up", podium.second_runner_up),
            ("third runner-up", podium.third_runner_up),
        )
        if team is not None
    ]
    bracket = view.bracket
    note = (
        f"{bracket.qualifiers} qualifiers, a bracket of {bracket.size}; the final is "
        f"best of {bracket.final_best_of}. Totals of the final are games won."
    )
    if decided:
        note += " " + "; ".join(decided) + "."
    places = final_places_get(tournament=tournament, view=view)
    return (
        rows,
        note,
        None
        if places is None
        else [[p.final_place, p.team.name, p.league_rank] for p in places],
    )


def champions_list(*, tournaments: list[Tournament]) -> dict[int, str]:
    """The champion's name of each of `tournaments` whose final is decided (the
    home page and the Overview): one query."""
    finals = (
        KnockoutMatch.objects.filter(
            bracket__tournament__in=tournaments, kind=progression.Kind.FINAL
        )
        .exclude(winner="")
        .values_list("bracket__tournament_id", "winner", "team_a__name", "team_b__name")
    )
    return {t: a if winner == "A" else b for t, winner, a, b in finals}
