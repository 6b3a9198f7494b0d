"""Which of a tournament's settings an organizer may still change, and why not.

A setting is fixed by the step that relies on it (API.md: a field an earlier step fixed
is 409 naming that step): the rule set and the league's numbers by the draw, which made
the rounds with them, the time zone, in which the day's times are told from then
on (check-in is over, play starts: docs/decisions.md, "Time zones"), and the home
country, which placed the teams in the sections the draw kept apart; the number of
qualifiers by the knockout seeding, which drew the line with it. Names, dates, venue,
publication and substitutions stay open throughout. It does not check the values
themselves (the rule set's team sizes are in rulesets.py, the time zone's names in
zones.py, the ranges in the model's constraints).

Vocabulary: a *step* is one of the tournament's irreversible moves (the draw, the
seeding); a setting is *fixed* once its step is taken.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import marked
from .types import TournamentStatus

SETTINGS = (
    "name",
    "starts_on",
    "ends_on",
    "venue",
    "time_zone",
    "home_country",
    "ruleset",
    "players_per_team",
    "league_rounds",
    "league_deals",
    "qualifiers",
    "check_in_required",
    "substitutions_allowed",
    "published",
)


@dataclass(frozen=True)
class Step:
    code: str  # the error code of a change it refuses
    title: str  # "the league draw"
    done: str  # "the league is drawn"
    settings: frozenset[str]
    taken_from: TournamentStatus  # the first status in which the step is taken


DRAW = Step(
    "draw_locked",
    marked("the league draw"),
    marked("the league is drawn"),
    frozenset(
        {
            "ruleset",
            "players_per_team",
            "league_rounds",
            "league_deals",
            "check_in_required",
            "time_zone",
            "home_country",
        }
    ),
    TournamentStatus.LEAGUE,
)
SEEDING = Step(
    "knockout_seeded",
    marked("the knockout seeding"),
    marked("the knockout is seeded"),
    frozenset({"qualifiers"}),
    TournamentStatus.KNOCKOUT,
)
STEPS = (DRAW, SEEDING)
_ORDER = list(TournamentStatus)


def fixed_settings(status: TournamentStatus | str) -> dict[str, Step]:
    """Each setting fixed in a tournament of this status, with the step that fixed
    it."""
    here = _ORDER.index(TournamentStatus(status))
    return {
        name: step
        for step in STEPS
        if here >= _ORDER.index(step.taken_from)
        for name in step.settings
    }


def status_made(*, drawn: bool, seeded: bool, undecided: int) -> TournamentStatus:
    """The status the steps leave a tournament in, from what they made: registration
    until the league draw, the league until the knockout is seeded, the knockout
    while a knockout match is undecided, finished once every one is (the services
    move it so: scoring/league, brackets). A tournament's file is held to it."""
    if not drawn:
        return TournamentStatus.REGISTRATION
    if not seeded:
        return TournamentStatus.LEAGUE
    return TournamentStatus.KNOCKOUT if undecided else TournamentStatus.FINISHED
