"""A best-of-N series: the final is best of three games (rules.md §6).

What it computes: from the winners of the games played so far, each side's wins, the
series winner once a side has won a majority, and the number of the next game to
play (a third game only at one game each).

What it does not: decide a game (each game is a score sheet with its own tie-break).

Vocabulary: a *game* is one score sheet of the series; the teams keep their sides A
and B in every game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.domain.rules import Side

FINAL_BEST_OF = 3  # 000 §6: "best-of-three" games of 18 shuffles


@dataclass(frozen=True)
class Series:
    best_of: int
    wins_a: int
    wins_b: int
    winner: Side | None
    next_game: int | None  # None once decided

    @property
    def to_win(self) -> int:
        return self.best_of // 2 + 1

    def wins(self, side: Side) -> int:
        return self.wins_a if side is Side.A else self.wins_b


def series_state(game_winners: Sequence[Side], best_of: int = FINAL_BEST_OF) -> Series:
    """Where a series stands after the decided games `game_winners`, in order."""
    if best_of < 1 or best_of % 2 == 0:
        raise AssertionError(f"a series is best of an odd number, not {best_of}")
    to_win = best_of // 2 + 1
    wins = {Side.A: 0, Side.B: 0}
    winner: Side | None = None
    for number, side in enumerate(game_winners, start=1):
        if winner is not None:
            raise AssertionError(
                f"game {number} after the series was decided by game {number - 1}"
            )
        wins[side] += 1
        if wins[side] == to_win:
            winner = side
    return Series(
        best_of=best_of,
        wins_a=wins[Side.A],
        wins_b=wins[Side.B],
        winner=winner,
        next_game=None if winner else len(game_winners) + 1,
    )
