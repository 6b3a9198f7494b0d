"""Who a player is across tournaments (RULES.md §10; docs/ratings.md, "People").

What it decides: which person each player of a tournament's teams is. The same name
on teams of the same city (the captain's) is one person, letter case and spaces aside
(and Unicode's two ways of writing one letter, so a Malayalam name typed on two
phones is still one name). One person never plays for two teams of one tournament:
two players of one name and city there are two people. Where several people share a
name and city (a site administrator split them), a player is the first of them (by
id) not already in the tournament.

What it does not: read or store people, or merge and split them (a site
administrator does, on the people's page); it gives the caller the assignments and
the players who are new people.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field


def person_key(name: str, city: str) -> str:
    """What makes two players one person: the name and the city, each in one Unicode
    form, letter case folded and spaces collapsed."""
    return f"{_plain(name)}|{_plain(city)}"


def _plain(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


@dataclass(frozen=True)
class Seat:
    """A player of a tournament: its team, its name as written, its team's city."""

    team: int
    name: str
    city: str

    @property
    def key(self) -> str:
        return person_key(self.name, self.city)


@dataclass
class Identified:
    """Each seat's person: a known person's id, or None for a new person (one new
    person per entry of `new`, the seats it takes)."""

    known: dict[Seat, int] = field(default_factory=dict)
    new: list[list[Seat]] = field(default_factory=list)


def identify(seats: Iterable[Seat], people: Mapping[str, Sequence[int]]) -> Identified:
    """The person of each seat of one tournament. `people` gives, for a key, the ids
    of the people who have it, oldest first. Two seats of one team with one key (a
    name written twice, once with another case) are one person. Seats are taken team
    by team (by id), so the answer does not depend on the order they come in."""
    identified = Identified()
    taken: set[int] = set()
    seated: dict[tuple[int, str], int | list[Seat]] = {}
    for seat in sorted(set(seats), key=lambda s: (s.team, s.key, s.name)):
        already = seated.get((seat.team, seat.key))
        if isinstance(already, int):
            identified.known[seat] = already
            continue
        if isinstance(already, list):
            already.append(seat)
            continue
        free = [p for p in people.get(seat.key, ()) if p not in taken]
        if free:
            taken.add(free[0])
            seated[seat.team, seat.key] = identified.known[seat] = free[0]
        else:
            group = [seat]
            seated[seat.team, seat.key] = group
            identified.new.append(group)
    return identified
