"""A season's points and standings (RULES.md §10; docs/ratings.md, "Seasons").
With the knockout, since a final place is first the knockout's (its podium).

What it computes (a team's final place is places.py's): the points a place scores by
a season's table, and the season's standings of whoever collected them (teams, or
players: a player scores his team's points for a tournament in which he played at
least one match), with points per tournament, a total and a rank.

The table is a step table of final places: `{1: 100, 2: 75, …, 25: 10, 129: 0}` says
"from this place on, these points", so a place not listed scores as the nearest
listed place above it, and one table serves a tournament of 24 qualifiers and one of
16. A table is read from its pairs as written (a form's "1: 100", a JSON object's
"1": 100): each number in the digits 0 to 9 only, and each place once. What it does
not: read tournaments or store anything.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import TypeVar

from tournament.domain.errors import RuleError, marked

T = TypeVar("T")

# The default table (docs/ratings.md): the knockout's places of a 24-qualifier
# championship, then bands of the league's ranks.
DEFAULT_POINTS: dict[int, int] = {
    1: 100,  # champion
    2: 75,  # runner-up
    3: 60,  # second runner-up
    4: 50,  # third runner-up
    5: 40,  # the quarter-finals' losers
    9: 30,  # the round of 16's losers (pre-quarter-finals)
    17: 20,  # the first knockout round's losers
    25: 10,  # the league's best non-qualifiers
    33: 8,
    49: 5,
    65: 3,
    97: 1,
    129: 0,
}


_DIGITS = frozenset("0123456789")


def whole_number(value: object) -> int | None:
    """A whole number as written: an int (not a bool), or text of the digits 0 to 9
    (spaces around it aside); None for anything else. Python's int() also reads
    "١" (Arabic-Indic), "𝟙" (mathematical), "1_0" and "+1": a table would score
    what no one meant."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        text = value.strip(" \t\r\n")
        if text and len(text) <= 4000 and set(text) <= _DIGITS:  # int()'s own limit
            return int(text)
    return None


def _written_number(written: object) -> int:
    number = whole_number(written)
    if number is None:
        raise RuleError(
            "not_whole_number",
            marked(
                "“%(written)s” is not written in the digits 0 to 9 alone: places and "
                "points are whole numbers, 0 or more"
            ),
            field="points",
            written=str(written)[:20],
        )
    return number


def points_read(pairs: Iterable[tuple[object, object]]) -> dict[int, int]:
    """A table from its (place, points) pairs as written, or a RuleError naming the
    field `points` and the rule: every number whole in the digits 0 to 9, and each
    place once ("1" and "01" are one place, and which points it scores would be a
    guess: the organizer says)."""
    table: dict[int, int] = {}
    for written_place, written_points in pairs:
        place, points = _written_number(written_place), _written_number(written_points)
        if place in table:
            raise RuleError(
                "place_twice",
                marked(
                    "place %(place)s is given twice (%(first)s and %(second)s "
                    "points): give each place once"
                ),
                field="points",
                place=place,
                first=table[place],
                second=points,
            )
        table[place] = points
    return table


def points_table(raw: Mapping[int, int] | None) -> dict[int, int]:
    """A season's table as given (None: the default), checked: places from 1, points
    never more for a worse place. ValueError says what is wrong; a number not whole
    or a place given twice is points_read's RuleError."""
    if raw is None:
        return dict(DEFAULT_POINTS)
    table = points_read(raw.items())
    if 1 not in table:
        raise ValueError("the table starts at place 1")
    if any(place < 1 for place in table):
        raise ValueError("places are counted from 1")
    if any(points < 0 for points in table.values()):
        raise ValueError("points are 0 or more")
    ordered = [table[place] for place in sorted(table)]
    if any(worse > better for better, worse in pairwise(ordered)):
        raise ValueError("a worse place never scores more than a better one")
    return dict(sorted(table.items()))


def place_points(place: int, table: Mapping[int, int]) -> int:
    """The points of a final place: those of the nearest listed place at or above it."""
    listed = [p for p in table if p <= place]
    return table[max(listed)] if listed else 0


def best_places(
    played: Iterable[tuple[int, int]], places: Mapping[int, int]
) -> dict[int, int]:
    """Each player's place in one tournament from (player, team) pairs of the matches
    they played: their team's place, the best one if they played for two."""
    best: dict[int, int] = {}
    for player, team in played:
        place = places[team]
        best[player] = min(place, best.get(player, place))
    return best


@dataclass(frozen=True)
class SeasonRow:
    rank: int
    key: int  # a player's person, or a team across tournaments
    name: str
    points: dict[str, int]  # tournament (slug): points, where it scored any place
    total: int


def season_standings(
    places: Mapping[str, Mapping[int, int]],
    names: Mapping[int, str],
    table: Mapping[int, int],
) -> list[SeasonRow]:
    """The season's rows, best first: `places` gives, for each tournament (slug) in
    the season's order, each entrant's final place there. Equal totals share a rank
    (1, 1, 3); among them, by name."""
    points: dict[int, dict[str, int]] = {}
    for slug, finished in places.items():
        for key, place in finished.items():
            points.setdefault(key, {})[slug] = place_points(place, table)
    rows = sorted(
        (
            (sum(scored.values()), names[key], key, scored)
            for key, scored in points.items()
        ),
        key=lambda row: (-row[0], row[1], row[2]),
    )
    ranked: list[SeasonRow] = []
    for n, (total, name, key, scored) in enumerate(rows, start=1):
        rank = ranked[-1].rank if ranked and ranked[-1].total == total else n
        ranked.append(SeasonRow(rank, key, name, scored, total))
    return ranked
