"""Players' ratings across tournaments (RULES.md §10; docs/ratings.md).

What it computes: each person's rating from the matches they played, one match after
the other in the order given (the caller's: tournament date, then stage, round and
table). A match is a game between the two teams' players of that match (the rosters
of its round, after substitutions), won by one side or tied; forfeits and byes are
never given here. The model is Weng-Lin's Bayesian rating for teams (openskill's
Plackett-Luce, its default parameters): each person is a belief about their skill, a
mean `mu` and a deviation `sigma`, and a team is the sum of its players.

What it shows: a conservative figure, `mu - 3 sigma` (the skill the person is almost
surely above), put on a scale people read like a chess rating: a newcomer is 1000
and each point of skill is 40 of the display. Fewer than 10 rated matches is
*provisional*.

What it does not: read or store anything. Recomputing from the same matches in the
same order always gives the same floats, and rating a list in two parts (the second
starting from the first's ratings) gives exactly what rating it whole gives: so the
worker may rate each confirmed sheet as it comes, and `ratings_rebuild` recompute
everything, and the two agree to the last bit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from openskill.models import PlackettLuce, PlackettLuceRating

MU = 25.0  # openskill's prior: a newcomer's mean skill
SIGMA = MU / 3  # and deviation
PROVISIONAL_MATCHES = 10  # RULES.md §10: fewer rated matches than this is provisional
DISPLAY_BASE = 1000  # a newcomer's conservative skill (0) on the display
DISPLAY_SCALE = 40  # display points for a point of skill

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


class Outcome(StrEnum):
    A = "A"  # side A won the match
    B = "B"
    TIE = "tie"


_RANKS = {Outcome.A: [1.0, 2.0], Outcome.B: [2.0, 1.0], Outcome.TIE: [1.0, 1.0]}


@dataclass(frozen=True)
class Rating:
    """A person's belief of skill after `matches` rated matches."""

    mu: float = MU
    sigma: float = SIGMA
    matches: int = 0

    @property
    def conservative(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        """The public figure: the conservative skill on the readable scale."""
        return round(DISPLAY_BASE + DISPLAY_SCALE * self.conservative)

    @property
    def uncertainty(self) -> int:
        """How far the display may still rise as the deviation shrinks (3 sigma, on
        the display's scale): the API's; the pages say `matches_to_settle`."""
        return round(DISPLAY_SCALE * 3 * self.sigma)

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL_MATCHES

    @property
    def matches_to_settle(self) -> int:
        """How many more rated matches until the rating is no longer provisional:
        what the pages say beside a provisional rating (docs/ratings.md)."""
        return max(0, PROVISIONAL_MATCHES - self.matches)


NEWCOMER = Rating()


@dataclass(frozen=True)
class RatedMatch:
    """One confirmed match to rate: its key (the caller's, for the history), the
    people of each side, and who won."""

    key: int
    side_a: Sequence[int]
    side_b: Sequence[int]
    outcome: Outcome

    def __post_init__(self) -> None:
        if not self.side_a or not self.side_b:
            raise ValueError(f"match {self.key}: a side without players is not rated")
        a, b = set(self.side_a), set(self.side_b)
        if len(a) != len(self.side_a) or len(b) != len(self.side_b):
            raise ValueError(f"match {self.key}: a player is twice on one side")
        if a & b:
            raise ValueError(f"match {self.key}: a player is on both sides")


@dataclass(frozen=True)
class Step:
    """A person's rating after a match: the rating history."""

    match: int
    person: int
    rating: Rating


@dataclass
class Ratings:
    """Every person's rating after the matches rated, and each step on the way."""

    people: dict[int, Rating] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)

    def of(self, person: int) -> Rating:
        return self.people.get(person, NEWCOMER)


def rate(
    matches: Iterable[RatedMatch], start: Mapping[int, Rating] | None = None
) -> Ratings:
    """Rate `matches` in the order given, from `start` (everyone a newcomer when
    None or not in it). Each side's players are taken in the order of their ids, so
    the floats do not depend on how the caller listed them."""
    ratings = Ratings(people=dict(start or {}))
    for match in matches:
        sides = (sorted(match.side_a), sorted(match.side_b))
        before = [[ratings.of(person) for person in side] for side in sides]
        rated = _MODEL.rate(_teams(before), ranks=list(_RANKS[match.outcome]))
        for side, old, new in zip(sides, before, rated, strict=True):
            for person, was, now in zip(side, old, new, strict=True):
                after = Rating(mu=now.mu, sigma=now.sigma, matches=was.matches + 1)
                ratings.people[person] = after
                ratings.steps.append(Step(match.key, person, after))
    return ratings


def win_probability(
    side_a: Sequence[int], side_b: Sequence[int], ratings: Ratings
) -> float:
    """The chance that side A beats side B by their ratings now (a tie counted as
    half each way): what the ratings predict, for `python -m bench ratings`."""
    sides = (sorted(side_a), sorted(side_b))
    teams = _teams([[ratings.of(person) for person in side] for side in sides])
    return float(_MODEL.predict_win(teams)[0])


def _teams(sides: list[list[Rating]]) -> list[list[PlackettLuceRating]]:
    """openskill's teams of these ratings."""
    return [[_MODEL.rating(mu=r.mu, sigma=r.sigma) for r in side] for side in sides]


def position(
    day: str, tournament: int, knockout: bool, round: int, table: int, match: int
) -> str:
    """A match's place in the ratings' order as text that sorts as the order does
    (RULES.md §10): the tournament's first day (ISO), the tournament, the league
    before the knockout, the round, the table, and the sheet's id last so that no two
    matches share a place."""
    if not (0 <= round < 1000 and 0 <= table < 100_000 and tournament >= 0):
        raise ValueError(f"match {match}: round {round} or table {table} out of range")
    return (
        f"{day}|{tournament:012d}|{int(knockout)}|{round:03d}|{table:05d}|{match:015d}"
    )
