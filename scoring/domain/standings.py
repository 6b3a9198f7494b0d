"""League standings: the ranking of rules.md §5 (000 §6.3), shared ranks, and lots.

What it computes: from a league's decided matches and its byes, each team's played,
won, tied and lost matches and its four ranking numbers:

- R1, match points: 3 a win, 1 a tie, 0 a loss (000 §5.4, §5.6), 3 a bye (000 §6);
- R2, the sum over won matches of min(5, the score difference);
- R3, the sum over won matches of the score difference;
- R4, the sum of the team's own match totals over all its league matches.

A bye counts for R2..R4 as the team's own average per played league match (rules.md
§5), so those three are exact `Fraction`s; nothing here rounds them. A forfeit
(rules.md §9) counts for the present team exactly as a bye, and for the absent team
as a match played and lost with a total of 0; both absent, both lose so. Teams equal
on all four share a rank. Where a place must be decided (the qualifying line, and the
seeding of the qualifiers, which orders every one of them), `draw_lots` orders equal
teams by a lot from a recorded seed and marks each row it placed. A withdrawn team
keeps the rank its numbers give it, but the qualifying line, the lots and the places
that qualify pass over it (rules.md §9): they are counted among the *contenders*,
the teams that are not withdrawn.

What it does not: read a score sheet (a match's totals and winner come in as values,
scored by rules.py), decide which matches count (completed ones of released rounds;
that is the selector's), or store anything.

Vocabulary: a *result* is one decided league match (played, or forfeited); the
*difference* is the winner's total minus the loser's; the *own average* divides by
the matches played at a table plus the forfeits lost; a *rank* may be shared ("1, 2,
2, 4"), a *place* never is (1..n, equals in the order a lot gave them, or by team id
until one is drawn).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import groupby

from .forfeits import Absent
from .rules import Side

__all__ = ["Absent", "MatchResult", "Settled", "Standing", "rank_teams", "settle"]

WIN_POINTS = 3  # 000 §5.4
TIE_POINTS = 1  # 000 §5.6
BYE_POINTS = WIN_POINTS  # rules.md §5: a bye counts as a win
DIFFERENCE_CAP = 5  # 000 §6.3: R2 counts a won match's difference up to 5
LOT_ALGORITHM = "56-lot/1"


@dataclass(frozen=True)
class MatchResult:
    """One decided league match: both teams' totals and the winner (None: a tie, or
    a forfeit that neither team came to). `absent` marks a forfeit: its totals are
    0 and its winner is the team that came."""

    team_a: int
    team_b: int
    total_a: int
    total_b: int
    winner: Side | None
    confirmed: bool = True  # False: completed, not yet confirmed by both captains
    absent: Absent | None = None

    def __post_init__(self) -> None:
        if self.team_a == self.team_b:
            raise AssertionError(f"team {self.team_a} cannot play itself")
        if self.absent is not None and (
            self.winner != self.absent.present or self.total_a or self.total_b
        ):
            raise AssertionError(f"{self}: a forfeit's winner is the team present")


# R2..R4: whole numbers, or exact fractions once a bye adds the own average.
Points = int | Fraction
RankKey = tuple[int, Points, Points, Points]


@dataclass(frozen=True)
class Standing:
    """One team's row of the standings."""

    team: int
    rank: int  # shared by teams equal on R1..R4
    place: int  # 1..n, never shared
    played: int  # rounds with a result: matches, byes, forfeits won and lost (§9)
    won: int  # byes and forfeits won included
    tied: int
    lost: int  # forfeits lost included
    byes: int
    r1: int
    r2: Points
    r3: Points
    r4: Points
    provisional: bool  # a counted match is not confirmed yet
    lot: bool = False  # its place among equal teams was decided by a lot
    forfeits_won: int = 0
    forfeits_lost: int = 0
    withdrawn: bool = False  # ranked, but never qualifies (rules.md §9)

    @property
    def key(self) -> RankKey:
        return (self.r1, self.r2, self.r3, self.r4)


@dataclass
class _Tally:
    played: int = 0  # at a table, and forfeits lost: what the own average divides by
    won: int = 0  # at a table
    tied: int = 0
    lost: int = 0  # at a table, and forfeits lost
    byes: int = 0
    forfeits_won: int = 0
    forfeits_lost: int = 0
    r2: int = 0
    r3: int = 0
    r4: int = 0
    provisional: bool = False
    opponents: list[int] = field(default_factory=list)

    def add(self, own: int, theirs: int, outcome: int, confirmed: bool) -> None:
        """`outcome`: 1 won, 0 tied, -1 lost."""
        self.played += 1
        self.r4 += own
        self.provisional |= not confirmed
        if outcome > 0:
            self.won += 1
            difference = own - theirs
            self.r2 += min(DIFFERENCE_CAP, difference)
            self.r3 += difference
        elif outcome == 0:
            self.tied += 1
        else:
            self.lost += 1

    @property
    def averaged(self) -> int:
        """Rounds that count as the team's own average: byes and forfeits won."""
        return self.byes + self.forfeits_won

    def with_byes(self, total: int) -> Points:
        """A sum over played matches, plus the team's own average per played match
        for each bye and each forfeit won (rules.md §5, §9); a team that has played
        nothing gets 0 for them. Exact: a fraction only where the average is not
        whole."""
        if not self.averaged or not self.played:
            return total
        exact = Fraction(total * (self.played + self.averaged), self.played)
        return exact.numerator if exact.denominator == 1 else exact


def rank_teams(
    teams: Iterable[int],
    results: Iterable[MatchResult],
    byes: Iterable[int] = (),
    withdrawn: Iterable[int] = (),
) -> list[Standing]:
    """Every team's standing, best first (rules.md §5, §9).

    `byes` names a team once per bye it has had; `withdrawn` the teams that left
    (ranked as their numbers say, marked, never qualifying). Equal teams share a
    rank and are listed by team id; `draw_lots` orders them where a place must be
    decided.
    """
    tally = {team: _Tally() for team in teams}
    gone = frozenset(withdrawn)

    def of(team: int) -> _Tally:
        if team not in tally:
            raise AssertionError(f"team {team} has a result but is not in the league")
        return tally[team]

    for r in results:
        if r.absent is not None:
            # rules.md §9: the absent team lost a match with a total of 0; the team
            # present won it as it wins a bye.
            for side, team in ((Side.A, r.team_a), (Side.B, r.team_b)):
                t = of(team)
                t.provisional |= not r.confirmed
                if r.absent.includes(side):
                    t.add(0, 0, -1, r.confirmed)
                    t.forfeits_lost += 1
                else:
                    t.forfeits_won += 1
            continue
        if r.winner is not None and r.winner is Side.A and r.total_a < r.total_b:
            raise AssertionError(f"{r}: the winner has the lower total")
        if r.winner is Side.B and r.total_b < r.total_a:
            raise AssertionError(f"{r}: the winner has the lower total")
        outcome_a = 0 if r.winner is None else (1 if r.winner is Side.A else -1)
        of(r.team_a).add(r.total_a, r.total_b, outcome_a, r.confirmed)
        of(r.team_b).add(r.total_b, r.total_a, -outcome_a, r.confirmed)
    for team in byes:
        of(team).byes += 1

    # Rank keys first, then one Standing per team with its rank and place: sorting
    # plain tuples and building each row once is what keeps 500 teams cheap.
    keyed = []
    for team, t in tally.items():
        r1 = WIN_POINTS * t.won + TIE_POINTS * t.tied + BYE_POINTS * t.averaged
        key = (r1, t.with_byes(t.r2), t.with_byes(t.r3), t.with_byes(t.r4))
        keyed.append((key, team, t))
    keyed.sort(key=lambda e: (_descending(e[0]), e[1]))
    rows: list[Standing] = []
    rank, before = 0, None
    for place, (key, team, t) in enumerate(keyed, 1):
        if key != before:
            rank, before = place, key
        rows.append(
            Standing(
                team=team,
                rank=rank,
                place=place,
                played=t.played + t.averaged,
                won=t.won + t.averaged,
                tied=t.tied,
                lost=t.lost,
                byes=t.byes,
                r1=key[0],
                r2=key[1],
                r3=key[2],
                r4=key[3],
                provisional=t.provisional,
                forfeits_won=t.forfeits_won,
                forfeits_lost=t.forfeits_lost,
                withdrawn=team in gone,
            )
        )
    return rows


def _descending(key: RankKey) -> RankKey:
    return (-key[0], -key[1], -key[2], -key[3])


def lot_key(seed: int, team: int) -> int:
    """A team's number in the lot drawn with `seed`: lower draws the better place.
    A hash, so the same seed orders the same two teams the same way on any machine,
    whatever other teams are equal with them."""
    text = f"{LOT_ALGORITHM}:{seed}:{team}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


def equal_groups(standings: Sequence[Standing]) -> list[list[Standing]]:
    """Runs of two or more teams that share a rank, in standings order."""
    groups = [list(g) for _, g in groupby(standings, key=lambda s: s.rank)]
    return [g for g in groups if len(g) > 1]


def contenders(standings: Sequence[Standing]) -> list[tuple[int, Standing]]:
    """The teams that may still qualify (not withdrawn), each with its place among
    them: the place the qualifying line and the seeding count (rules.md §9)."""
    return list(enumerate((s for s in standings if not s.withdrawn), 1))


def _contender_groups(
    standings: Sequence[Standing],
) -> list[list[tuple[int, Standing]]]:
    runs = [list(g) for _, g in groupby(contenders(standings), key=lambda e: e[1].rank)]
    return [run for run in runs if len(run) > 1]


def places_to_decide(standings: Sequence[Standing], places: int) -> list[list[int]]:
    """The groups of equal contenders whose places a lot must decide: every group
    with a contender's place within the first `places` (the qualifiers are seeded
    one by one, and a group across the qualifying line decides who qualifies). A
    withdrawn team draws no lot. Team ids, standings order."""
    return [
        [s.team for _, s in group]
        for group in _contender_groups(standings)
        if group[0][0] <= places
    ]


def draw_lots(
    standings: Sequence[Standing], *, seed: int, places: int
) -> list[Standing]:
    """The standings with every group of `places_to_decide` ordered by the lot of
    `seed` and marked `lot`; nothing else moves, and ranks stay shared. A withdrawn
    team that shares the rank follows the teams the lot ordered."""
    if [s.place for s in standings] != list(range(1, len(standings) + 1)):
        raise AssertionError("draw_lots takes the standings in place order")
    decide = {team for group in places_to_decide(standings, places) for team in group}
    rows: list[Standing] = []
    for _, run in groupby(standings, key=lambda s: s.rank):
        members = list(run)
        if any(s.team in decide for s in members):
            members.sort(
                key=lambda s: (s.withdrawn, 0 if s.withdrawn else lot_key(seed, s.team))
            )
        rows += members
    return [
        replace(row, place=place, lot=row.team in decide)
        for place, row in enumerate(rows, 1)
    ]


def line_undecided(standings: Sequence[Standing], places: int) -> list[int]:
    """Contenders equal across the line after `places` (some of them inside, some
    not) while no lot has ordered them: who qualifies is not settled by R1..R4."""
    return [
        s.team
        for group in _contender_groups(standings)
        if not group[0][1].lot and group[0][0] <= places < group[-1][0]
        for _, s in group
    ]


def qualifying(standings: Sequence[Standing], places: int) -> dict[int, bool | None]:
    """Whether each team is within the best `places` contenders (rules.md §6: the
    best 24 qualify; §9: a withdrawn team never does): None for teams equal across
    the line while no lot has ordered them."""
    undecided = set(line_undecided(standings, places))
    answer: dict[int, bool | None] = {s.team: False for s in standings}
    for place, s in contenders(standings):
        answer[s.team] = None if s.team in undecided else place <= places
    return answer


@dataclass(frozen=True)
class Settled:
    """The standings as they are shown: `rows` in place order, `to_decide` the
    groups of equal teams a lot must order (team ids; empty until the standings are
    final), and whether each team `qualifies` (None: equal with teams across the
    qualifying line, with no lot to order them yet)."""

    rows: list[Standing]
    to_decide: list[list[int]]
    qualifies: dict[int, bool | None]


def settle(
    standings: Sequence[Standing], *, places: int, final: bool, seed: int | None
) -> Settled:
    """rules.md §9, "Lots wait for the end": while the league is in play (`final`
    False) equal teams share their rank, nothing is to be decided by lot and a lot
    drawn earlier (before a sheet was reopened) orders nobody; the teams equal
    across the qualifying line are shown as equal there. Once final, the groups of
    `places_to_decide` wait for a lot, and the recorded one (`seed`) orders them."""
    rows = list(standings)
    if not final:
        return Settled(rows, [], qualifying(rows, places))
    to_decide = places_to_decide(rows, places)
    if seed is not None:
        rows = draw_lots(rows, seed=seed, places=places)
    return Settled(rows, to_decide, qualifying(rows, places))


def shown(value: Points) -> int | float:
    """R2..R4 as the standings show them: whole, or to two decimals where a bye's
    average made a fraction (the order is decided on the exact value)."""
    if isinstance(value, int) or value.denominator == 1:
        return int(value)
    return round(float(value), 2)
