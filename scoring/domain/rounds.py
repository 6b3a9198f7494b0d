"""What every page, the workbook and the API call a round: one set of names (rules.md
§6, docs/knockout.md).

A league round is "Round N". A knockout round is named by the places it starts with,
as players say it: the *First knockout round* (000 §6: "1st Knock-Out Round") when
the first round has byes before the round of 16, then *Round of N*, *Quarter-finals*,
*Semi-finals* and the *Final*; the *Second runner-up match* (the semi-final losers)
is played in the final's round. The bracket (brackets/domain/progression.py), the
desk, the venue screen, the Matches tab, the links, a match's page and the workbook
all take their names from here.

The names are marked words (`Words`): English as the API and the workbook say them,
translated by the pages (tournament/words.py: words_said).
"""

from __future__ import annotations

from tournament.domain.errors import Words, filled, marked

from .rules import Stage

__all__ = [
    "FINAL",
    "FINAL_ROUND",
    "SECOND_RUNNER_UP",
    "bracket_places",
    "final_game",
    "knockout_name",
    "round_name",
]

FIRST_KNOCKOUT_ROUND = marked("First knockout round")
ROUND_OF = marked("Round of %(places)s")
QUARTER_FINALS = marked("Quarter-finals")
SEMI_FINALS = marked("Semi-finals")
FINAL = marked("Final")
SECOND_RUNNER_UP = marked("Second runner-up match")
FINAL_ROUND = marked("Final and second runner-up match")
FINAL_GAME = marked("Final, game %(number)s")
LEAGUE_ROUND = marked("Round %(number)s")
KNOCKOUT_ROUND = marked("Knockout round %(number)s")


def bracket_places(qualifiers: int) -> int:
    """P: the smallest power of two that holds `qualifiers` teams (at least 2)."""
    return max(2, 1 << (max(qualifiers, 1) - 1).bit_length())


def knockout_name(places: int, *, first: bool, with_byes: bool) -> Words:
    """The name of a knockout round that starts with `places` places (its own
    matches: the final's round holds the second runner-up match as well)."""
    if places == 2:
        return FINAL
    if places == 4:
        return SEMI_FINALS
    if places == 8:
        return QUARTER_FINALS
    if first and with_byes:
        return FIRST_KNOCKOUT_ROUND
    return filled(ROUND_OF, places=places)


def round_name(stage: str, number: int, qualifiers: int | None = None) -> Words:
    """What a round of `stage` is called: "Round 3" in the league; in the knockout of
    `qualifiers` teams its name ("Quarter-finals"), the final's round naming the
    second runner-up match played beside it when there is one. A knockout round
    outside the bracket (or with `qualifiers` unknown) is "Knockout round N"."""
    if stage != Stage.KNOCKOUT:
        return filled(LEAGUE_ROUND, number=number)
    if qualifiers is None or qualifiers < 2 or number < 1:
        return filled(KNOCKOUT_ROUND, number=number)
    size = bracket_places(qualifiers)
    places = size >> (number - 1)
    if places < 2:
        return filled(KNOCKOUT_ROUND, number=number)
    if places == 2 and qualifiers >= 4:
        return FINAL_ROUND  # two semi-finals: their losers play beside the final
    return knockout_name(places, first=number == 1, with_byes=size > qualifiers)


def final_game(number: int, best_of: int) -> Words:
    """A sheet of the final: "Final" when it is played in one game, else "Final,
    game 2" (the final is best of three, 000 §6)."""
    return FINAL if best_of <= 1 else filled(FINAL_GAME, number=number)
