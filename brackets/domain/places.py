"""Every team's final place in a tournament (RULES.md §6, last bullet; docs/knockout.md,
"Final places"). The one source of final places: the bracket's page and API, the
workbook, the seasons' points and the venue screen all read them from here.

What it computes: the knockout's places from its plan and results (the podium 1 to
4; the losers of each earlier round share the place after every team that went
further: 5–8 as "5", 9–16 as "9", the first round's losers of 24 qualifiers as
"17"), and then every other team's place after all the qualifiers, in league order:
first the teams that did not qualify, then the teams that withdrew (chosen in
docs/knockout.md: a team that left finishes behind every team that stayed). Teams
equal in the league share a place, as on the standings ("25" twice, then "27").

While the knockout is played, a team still in it takes the place its current
match's loser will take (the place it is sure of): the seasons' provisional points.
Until the second runner-up match is decided, the semi-finals' two losers share 3.

What it does not: decide a match or read anything stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from scoring.domain.rules import Side

from .progression import Kind, Places, Plan

T = TypeVar("T")


@dataclass(frozen=True)
class LeagueRow(Generic[T]):
    """A team of the league standings, in their order: its rank (shared by equal
    teams) and whether it withdrew."""

    team: T
    rank: int
    withdrawn: bool = False


@dataclass(frozen=True)
class FinalPlace(Generic[T]):
    team: T
    final_place: int  # shared places repeat the number: 5, 5, 5, 5, 9, …
    league_rank: int


def knockout_places(
    plan: Plan, filled: Mapping[int, Places[T]], winners: Mapping[int, Side]
) -> dict[T, int]:
    """The place of every team known in the bracket (progression.fill and the
    winners by slot): its place if the knockout ended now, a team still in play
    taking the place its match's loser will take."""
    places: dict[T, int] = {}
    for rnd in plan.rounds:  # in order of play: a later match places a team again
        further = len(rnd.slots) + len(rnd.byes)
        for number in rnd.slots:
            slot = plan.slot(number)
            if slot.kind is Kind.FINAL:
                won, lost, playing = 1, 2, 2
            elif slot.kind is Kind.SECOND_RUNNER_UP:
                won, lost, playing = 3, 4, 3
            else:  # the winner plays on: its next match places it again
                won = lost = playing = further + 1
            side = winners.get(number)
            for own in (Side.A, Side.B):
                team = filled[number].team(own)
                if team is None:
                    continue
                if side is None:
                    places[team] = playing
                else:
                    places[team] = won if own is side else lost
    return places


def final_places(
    knockout: Mapping[T, int], league: Sequence[LeagueRow[T]]
) -> list[FinalPlace[T]]:
    """Every team of the league with its final place and league rank, best first:
    the qualifiers' knockout places, then the others after all the qualifiers in
    league order (teams that withdrew last), equal league ranks sharing a place."""
    rank = {row.team: row.rank for row in league}
    rows = [FinalPlace(team, place, rank[team]) for team, place in knockout.items()]
    rows.sort(key=lambda row: (row.final_place, row.league_rank))
    rest = [row for row in league if row.team not in knockout]
    start = len(knockout)
    for group in (
        [row for row in rest if not row.withdrawn],
        [row for row in rest if row.withdrawn],
    ):
        before: LeagueRow[T] | None = None
        for n, row in enumerate(sorted(group, key=lambda row: row.rank), start=1):
            place = (
                rows[-1].final_place
                if before is not None and before.rank == row.rank
                else start + n
            )
            rows.append(FinalPlace(row.team, place, row.rank))
            before = row
        start += len(group)
    return rows


def final_decided(plan: Plan, winners: Mapping[int, Side]) -> bool:
    """Whether the final is decided: from then on the final places are given."""
    return plan.final.number in winners
