"""Reads of the knockout: the bracket with its rounds, matches, games and podium."""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.domain.rules import MatchStatus, Side
from scoring.models import Match
from tournament.models import Team, Tournament

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
        done = [
            Side(g.sheet.winner)
            for g in self.games
            if g.sheet.status == MatchStatus.CONFIRMED
        ]
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
        if sheet.status == MatchStatus.CONFIRMED:
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
    )
