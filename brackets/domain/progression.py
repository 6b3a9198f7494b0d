"""Who fills which place of a knockout bracket, and who finishes where (rules.md §6).

What it computes: the plan of a bracket of Q qualifiers (every match that will be
played, round by round, and where each of its two places comes from: a seed, or the
winner or loser of an earlier match), the teams known in each match from the results
so far, and the podium: champion, runner-up, second and third runner-up.

What it does not: decide a match (the score sheet does, with its tie-break) or a
series (series.py), or store anything.

Vocabulary: a *slot* is one match of the bracket, numbered in the order of play; its
places are side A (the better seed, or the upper match) and side B. A *feed* says
where a place comes from. The *second runner-up match* is between the two
semi-final losers; its loser is the third runner-up. With one semi-final (three
qualifiers) its loser is second runner-up and there is no third.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar

from scoring.domain import rounds as round_names
from scoring.domain.rules import Side
from tournament.domain.errors import Words

from .seeding import bracket_size, first_round, round_name, stage_key

T = TypeVar("T")
SECOND_RUNNER_UP_KEY = "second_runner_up"


class Feed(StrEnum):
    SEED = "seed"
    WINNER = "winner"
    LOSER = "loser"


class Kind(StrEnum):
    MAIN = "main"
    FINAL = "final"
    SECOND_RUNNER_UP = "second_runner_up"


@dataclass(frozen=True)
class Source:
    feed: Feed
    ref: int  # the seed, or the number of the slot whose winner or loser comes


@dataclass(frozen=True)
class Slot:
    number: int
    round: int  # 1 = the first knockout round; the final's round is the last
    position: int  # top to bottom within its round, from 1
    kind: Kind
    stage: str  # the key of its deals per match (seeding.stage_key)
    a: Source
    b: Source

    def source(self, side: Side) -> Source:
        return self.a if side is Side.A else self.b


@dataclass(frozen=True)
class Round:
    number: int
    name: Words  # scoring/domain/rounds.py: marked for the pages' language
    places: int
    slots: tuple[int, ...]
    byes: tuple[int, ...]  # seeds that go straight on from this round


@dataclass(frozen=True)
class Plan:
    qualifiers: int
    size: int
    rounds: tuple[Round, ...]
    slots: tuple[Slot, ...]

    def slot(self, number: int) -> Slot:
        return self.slots[number - 1]

    @property
    def final(self) -> Slot:
        return next(s for s in self.slots if s.kind is Kind.FINAL)

    @property
    def second_runner_up(self) -> Slot | None:
        return next((s for s in self.slots if s.kind is Kind.SECOND_RUNNER_UP), None)

    @property
    def semi_finals(self) -> list[Slot]:
        return [s for s in self.slots if s.stage == "semi_final"]

    def fed_by(self, number: int) -> list[tuple[Slot, Side, Feed]]:
        """The later places the result of slot `number` fills."""
        return [
            (slot, side, source.feed)
            for slot in self.slots
            for side in (Side.A, Side.B)
            if (source := slot.source(side)).feed is not Feed.SEED
            and source.ref == number
        ]


def plan_bracket(qualifiers: int) -> Plan:
    """Every match of a bracket of `qualifiers` teams and where its places come from."""
    size = bracket_size(qualifiers)
    slots: list[Slot] = []
    rounds: list[Round] = []

    def add(
        round_: int, position: int, kind: Kind, stage: str, a: Source, b: Source
    ) -> Slot:
        slot = Slot(len(slots) + 1, round_, position, kind, stage, a, b)
        slots.append(slot)
        return slot

    entries: list[Source] = []
    first_slots: list[int] = []
    first_byes: list[int] = []
    for high, low in first_round(qualifiers):
        if low is None:
            first_byes.append(high)
            entries.append(Source(Feed.SEED, high))
            continue
        kind = Kind.FINAL if size == 2 else Kind.MAIN
        slot = add(
            1,
            len(first_slots) + 1,
            kind,
            stage_key(size),
            Source(Feed.SEED, high),
            Source(Feed.SEED, low),
        )
        first_slots.append(slot.number)
        entries.append(Source(Feed.WINNER, slot.number))
    rounds.append(
        Round(
            1,
            round_name(size, first=True, with_byes=bool(first_byes)),
            size,
            tuple(first_slots),
            tuple(first_byes),
        )
    )
    places, number = size // 2, 1
    while len(entries) > 1:
        number += 1
        semis = [s for s in slots if s.stage == "semi_final"]
        if places == 2 and len(semis) == 2:
            third = add(
                number,
                2,
                Kind.SECOND_RUNNER_UP,
                SECOND_RUNNER_UP_KEY,
                Source(Feed.LOSER, semis[0].number),
                Source(Feed.LOSER, semis[1].number),
            )
            rounds.append(
                Round(number, round_names.SECOND_RUNNER_UP, 2, (third.number,), ())
            )
        kind = Kind.FINAL if places == 2 else Kind.MAIN
        made = [
            add(number, i + 1, kind, stage_key(places), a, b)
            for i, (a, b) in enumerate(zip(entries[::2], entries[1::2], strict=True))
        ]
        entries = [Source(Feed.WINNER, s.number) for s in made]
        rounds.append(
            Round(
                number,
                round_name(places, first=False, with_byes=False),
                places,
                tuple(s.number for s in made),
                (),
            )
        )
        places //= 2
    return Plan(qualifiers, size, tuple(rounds), tuple(slots))


@dataclass(frozen=True)
class Places(Generic[T]):
    """The team in each place of a slot, None while not known."""

    a: T | None
    b: T | None

    def team(self, side: Side) -> T | None:
        return self.a if side is Side.A else self.b


def fill(
    plan: Plan, seeds: Mapping[int, T], winners: Mapping[int, Side]
) -> dict[int, Places[T]]:
    """The teams known in every slot: seeds from `seeds`, and winners and losers of
    the slots in `winners` (slot number -> the side that won)."""
    filled: dict[int, Places[T]] = {}

    def resolve(source: Source) -> T | None:
        if source.feed is Feed.SEED:
            return seeds[source.ref]
        side = winners.get(source.ref)
        if side is None:
            return None
        earlier = filled[source.ref]
        return earlier.team(side if source.feed is Feed.WINNER else side.other)

    for slot in plan.slots:  # numbered in order of play: every feed comes earlier
        filled[slot.number] = Places(resolve(slot.a), resolve(slot.b))
    return filled


@dataclass(frozen=True)
class Podium(Generic[T]):
    champion: T | None = None
    runner_up: T | None = None
    second_runner_up: T | None = None
    third_runner_up: T | None = None


def podium(
    plan: Plan, filled: Mapping[int, Places[T]], winners: Mapping[int, Side]
) -> Podium[T]:
    """Who finishes where, as far as the results go (rules.md §6)."""

    def result(slot: Slot | None) -> tuple[T | None, T | None]:
        if slot is None or slot.number not in winners:
            return None, None
        side = winners[slot.number]
        places = filled[slot.number]
        return places.team(side), places.team(side.other)

    champion, runner_up = result(plan.final)
    if plan.second_runner_up is not None:
        second, third = result(plan.second_runner_up)
    else:
        semis = plan.semi_finals
        second = result(semis[0])[1] if len(semis) == 1 else None
        third = None
    return Podium(champion, runner_up, second, third)
