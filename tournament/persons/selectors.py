"""Reads of people for the tournament's pages: which person a team's name is."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from ..domain.persons import person_key
from ..models import Seat


class TeamPeople:
    """Each team's names and their people (one query for any number of teams)."""

    def __init__(self, teams: Iterable[int]) -> None:
        self._people: dict[int, dict[str, int]] = defaultdict(dict)
        self._seats: dict[int, list[tuple[str, int]]] = defaultdict(list)
        for team, key, name, person in (
            # A hidden person's page is not shown to the public: no link to it.
            Seat.objects.filter(team__in=list(teams), person__hidden=False)
            .order_by("team", "pk")
            .values_list("team", "key", "name", "person")
        ):
            self._people[team][key] = person
            self._seats[team].append((name, person))

    def of(self, team: int, name: str, city: str) -> int | None:
        """The person who plays for `team` under `name` (its captain's `city`)."""
        return self._people[team].get(person_key(name, city))

    def seats(self, team: int) -> list[tuple[str, int]]:
        """The team's names, registered players first, each with its person."""
        return self._seats[team]
