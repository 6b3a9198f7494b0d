"""Does the rating predict? (issue 44, docs/ratings.md)

A federation is simulated: 120 teams of 3 players, each player with a hidden skill,
play 6 tournaments, each a league of 8 rounds (pairings at random, no team met
twice) and a knockout of its best 16. Every match is played out deal by deal: a deal
goes to a side with the chance its players' skills give it, the side with more deals
wins, equal deals tie a league match, and a knockout match plays single deals until
one side leads. Between tournaments a few teams change a player (a newcomer).

The ratings (scoring/domain/ratings.py, pure, as the site computes them) rate the
first five tournaments in time order; then each match of the sixth is predicted
from those ratings and set against what happened. Beside them, in the same run, two
baselines: "the team that placed higher last time wins" (its league place in the
fifth) and a coin. Figures:
- misses: the share of decided matches whose winner was not the one predicted;
- Brier score: the mean of (chance given to side A − what A scored)², a tie scoring
  a half: lower is better, a coin's is 0.25;
- the order: the share of pairs of players that the final ratings (the public,
  conservative figure) order against their hidden skills, (1 − Kendall's τ) / 2; a
  random order's is 0.5.

Pure Python, no database: the rebuild from stored sheets is timed by
`python -m bench rebuild`.

Usage: python -m bench ratings [--teams 120] [--tournaments 6] [--seed 56]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from dataclasses import dataclass, field

from bench.core import BenchFailed, Figure, Session
from scoring.domain.ratings import Outcome, RatedMatch, Ratings, rate, win_probability

TINY = ["--teams", "24", "--tournaments", "3"]
PLAYERS = 3  # a team of 56
ROUNDS = 8
LEAGUE_DEALS = 8
KNOCKOUT = 16
CHANGES = 0.1  # the share of teams that change a player between tournaments
DEAL_SLOPE = 0.35  # how much a point of skill difference moves a deal's chance


@dataclass
class Team:
    key: int
    players: list[int]


@dataclass
class Played:
    """One match as the site would hold it once confirmed."""

    key: int
    team_a: int
    team_b: int
    side_a: list[int]
    side_b: list[int]
    outcome: Outcome


@dataclass
class Tournament:
    matches: list[Played] = field(default_factory=list)
    places: dict[int, int] = field(default_factory=dict)  # team: league place


class Federation:
    def __init__(self, teams: int, rng: random.Random) -> None:
        self.rng = rng
        self.skill: dict[int, float] = {}
        self.teams = [
            Team(k, [self._newcomer() for _ in range(PLAYERS)]) for k in range(teams)
        ]
        self.keys = 0

    def _newcomer(self) -> int:
        person = len(self.skill) + 1
        self.skill[person] = self.rng.gauss(0, 1)
        return person

    def strength(self, team: Team) -> float:
        return sum(self.skill[p] for p in team.players)

    def changes(self) -> None:
        for team in self.teams:
            if self.rng.random() < CHANGES:
                team.players[self.rng.randrange(PLAYERS)] = self._newcomer()

    def deal(self, a: Team, b: Team) -> bool:
        """Whether side A takes a deal."""
        edge = DEAL_SLOPE * (self.strength(a) - self.strength(b))
        return self.rng.random() < 1 / (1 + math.exp(-edge))

    def match(self, a: Team, b: Team, *, knockout: bool) -> Played:
        won = sum(self.deal(a, b) for _ in range(LEAGUE_DEALS))
        lost = LEAGUE_DEALS - won
        while knockout and won == lost:
            if self.deal(a, b):
                won += 1
            else:
                lost += 1
        outcome = Outcome.A if won > lost else Outcome.B if lost > won else Outcome.TIE
        self.keys += 1
        return Played(
            self.keys, a.key, b.key, list(a.players), list(b.players), outcome
        )

    def pairings(self, met: set[frozenset[int]]) -> list[tuple[Team, Team]]:
        for _ in range(1000):
            order = self.rng.sample(self.teams, len(self.teams))
            pairs = list(zip(order[::2], order[1::2], strict=True))
            if all(frozenset((a.key, b.key)) not in met for a, b in pairs):
                return pairs
        raise BenchFailed("no pairing without a rematch: too few teams for the rounds")

    def tournament(self) -> Tournament:
        played = Tournament()
        points = {t.key: 0 for t in self.teams}
        margin = {t.key: 0 for t in self.teams}
        met: set[frozenset[int]] = set()
        for _ in range(ROUNDS):
            for a, b in self.pairings(met):
                met.add(frozenset((a.key, b.key)))
                match = self.match(a, b, knockout=False)
                played.matches.append(match)
                if match.outcome is Outcome.TIE:
                    points[a.key] += 1
                    points[b.key] += 1
                else:
                    winner = a if match.outcome is Outcome.A else b
                    points[winner.key] += 2
                    margin[winner.key] += 1
        ranked = sorted(
            self.teams,
            key=lambda t: (-points[t.key], -margin[t.key], self.rng.random()),
        )
        played.places = {team.key: n for n, team in enumerate(ranked, start=1)}
        field_ = ranked[: min(KNOCKOUT, len(ranked))]
        while len(field_) > 1:
            half = len(field_) // 2
            winners = []
            for a, b in zip(field_[:half], reversed(field_[half:]), strict=True):
                match = self.match(a, b, knockout=True)
                played.matches.append(match)
                winners.append(a if match.outcome is Outcome.A else b)
            field_ = winners
        return played


def rated(matches: list[Played]) -> list[RatedMatch]:
    return [RatedMatch(m.key, m.side_a, m.side_b, m.outcome) for m in matches]


def scored(outcome: Outcome) -> float:
    return {Outcome.A: 1.0, Outcome.B: 0.0, Outcome.TIE: 0.5}[outcome]


@dataclass
class Forecast:
    name: str
    chances: list[float]

    def brier(self, matches: list[Played]) -> float:
        return statistics.fmean(
            (p - scored(m.outcome)) ** 2
            for p, m in zip(self.chances, matches, strict=True)
        )

    def misses(self, matches: list[Played]) -> float:
        decided = [
            (p, m)
            for p, m in zip(self.chances, matches, strict=True)
            if m.outcome is not Outcome.TIE
        ]
        # An even chance names no winner: half a miss (a coin misses half).
        wrong = sum(
            0.5 if p == 0.5 else float((p > 0.5) != (m.outcome is Outcome.A))
            for p, m in decided
        )
        return wrong / len(decided)


def discordance(ratings: Ratings, skill: dict[int, float]) -> float:
    """(1 − Kendall's τ) / 2: the share of pairs ordered against the hidden skills
    (pairs equal in either are left out)."""
    people = sorted(ratings.people)
    shown = {p: ratings.of(p).conservative for p in people}
    against = pairs = 0
    for i, one in enumerate(people):
        for other in people[i + 1 :]:
            by_rating = shown[one] - shown[other]
            by_skill = skill[one] - skill[other]
            if by_rating and by_skill:
                pairs += 1
                against += (by_rating > 0) != (by_skill > 0)
    return against / pairs


def run(session: Session, argv: list[str]) -> list[Figure]:
    parser = argparse.ArgumentParser(prog="python -m bench ratings")
    parser.add_argument("--teams", type=int, default=120)
    parser.add_argument("--tournaments", type=int, default=6)
    parser.add_argument("--seed", type=int, default=56)
    args = parser.parse_args(argv)
    if args.tournaments < 2:
        raise BenchFailed("--tournaments: at least 2, the last one predicted")
    federation = Federation(args.teams, random.Random(args.seed))
    played = []
    for n in range(args.tournaments):
        if n:
            federation.changes()
        played.append(federation.tournament())
    history, last = played[:-1], played[-1]

    started = time.perf_counter()
    ratings = rate(m for t in history for m in rated(t.matches))
    took = time.perf_counter() - started
    matches = last.matches
    before = history[-1].places
    forecasts = [
        Forecast(
            "the ratings",
            [win_probability(m.side_a, m.side_b, ratings) for m in matches],
        ),
        Forecast(
            "placed higher last time",
            [1.0 if before[m.team_a] < before[m.team_b] else 0.0 for m in matches],
        ),
        Forecast("a coin", [0.5] * len(matches)),
    ]
    rated_count = sum(len(t.matches) for t in history)
    print(
        f"A federation of {args.teams} teams of {PLAYERS} ({len(federation.skill)} "
        f"players in all), {args.tournaments} tournaments of {ROUNDS} league rounds "
        f"and a knockout of {min(KNOCKOUT, args.teams)}; {rated_count} matches rated "
        f"in {took * 1000:.0f} ms; the last tournament's {len(matches)} matches "
        f"predicted ({sum(m.outcome is Outcome.TIE for m in matches)} tied)"
    )
    print(f"{'forecast':<26} {'misses':>8} {'Brier':>7}")
    for forecast in forecasts:
        print(
            f"{forecast.name:<26} {100 * forecast.misses(matches):>7.1f}% "
            f"{forecast.brier(matches):>7.3f}"
        )
    order = discordance(ratings, federation.skill)
    print(
        f"players ordered against their hidden skill by the final ratings: "
        f"{100 * order:.1f}% of pairs (Kendall's τ {1 - 2 * order:.2f})"
    )
    model, placement, _ = forecasts
    return [
        Figure(
            "ratings.misses",
            "the ratings' predictions of a tournament: winners missed",
            100 * model.misses(matches),
            "%",
            "placed higher last time",
            100 * placement.misses(matches),
        ),
        Figure(
            "ratings.brier",
            "the same: Brier score",
            model.brier(matches),
            "",
            "placed higher last time",
            placement.brier(matches),
        ),
        Figure(
            "ratings.order",
            "players ordered against their hidden skill, share of pairs",
            order,
            "",
            "a random order",
            0.5,
        ),
    ]
