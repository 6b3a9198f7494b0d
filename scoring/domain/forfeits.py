"""Forfeits and withdrawals: what the tournament day does to a score sheet (rules.md
§9; no rule book covers it).

What it computes: who wins a forfeited sheet (the team that came), whether a forfeit
may be recorded (not on a sheet with deals, not both absent in the knockout), and
which league matches a withdrawal turns into forfeits (the team's matches from the
round on that have no deal yet and are not final).

What it does not: rank anything (standings.py counts a forfeit as a bye for the team
present and a 0 for the team absent), read or write a sheet.

Vocabulary: the *absent* team did not come (A, B, or both); the *present* team did
and wins; a sheet is *final* when confirmed or forfeited.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from tournament.domain.errors import ConflictError, RuleError, marked

from .rules import Side


class Absent(StrEnum):
    """Who did not come to a forfeited match."""

    A = "A"
    B = "B"
    BOTH = "both"

    def includes(self, side: Side) -> bool:
        return self is Absent.BOTH or self.value == side.value

    @property
    def present(self) -> Side | None:
        """The team that came and wins; None when neither came."""
        if self is Absent.BOTH:
            return None
        return Side(self.value).other


def absent_choices(*, knockout: bool) -> list[Absent]:
    """Who may be named absent: both teams only in the league (a knockout match needs
    a team that moves on)."""
    return [a for a in Absent if not (knockout and a is Absent.BOTH)]


def forfeit_winner(absent: Absent, *, deals: int, knockout: bool) -> Side | None:
    """The winner of a forfeit of `absent` on a sheet holding `deals` deals, or the
    rule that refuses it: a sheet with deals is played, not forfeited (delete the
    deals first, or play the match out), and a knockout match needs a winner to move
    on, so both absent is refused there (the organizer decides it another way)."""
    if deals:
        raise ConflictError(
            "sheet_has_deals",
            marked(
                "deals on the sheet: %(deals)s; only a sheet with no deal can be "
                "forfeited: delete its deals first, or play the match out."
            ),
            deals=deals,
        )
    if absent not in absent_choices(knockout=knockout):
        raise RuleError(
            "knockout_needs_winner",
            marked(
                "a knockout match needs a team that moves on, so both teams cannot be "
                "absent: void the sheet and replay the match, or name the absent team."
            ),
            field="absent",
        )
    return absent.present


@dataclass(frozen=True)
class LeagueMatch:
    """A league match as a withdrawal sees it."""

    id: int
    round: int
    team_a: int
    team_b: int
    deals: int  # deals on its sheet
    final: bool  # confirmed or forfeited already


def withdrawal_forfeits(
    team: int, from_round: int, matches: Iterable[LeagueMatch]
) -> list[tuple[int, Absent]]:
    """The matches a team's withdrawal from `from_round` turns into forfeits by it,
    with the side that is absent: each of its league matches from that round on
    with no deal that is not final yet. Earlier results stand, and a match already
    being played is left to be played out or decided by the organizer."""
    out = []
    for m in sorted(matches, key=lambda m: (m.round, m.id)):
        if team not in (m.team_a, m.team_b):
            raise AssertionError(f"match {m.id} is not a match of team {team}")
        if m.round >= from_round and not m.deals and not m.final:
            out.append((m.id, Absent.A if m.team_a == team else Absent.B))
    return out
