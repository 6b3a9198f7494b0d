"""Which settings each step fixes (tournament/domain/setup.py), for every status."""

import itertools

import pytest

from tournament.domain.setup import (
    DRAW,
    SEEDING,
    SETTINGS,
    fixed_settings,
    status_made,
)
from tournament.domain.types import TournamentStatus

LEAGUE_NUMBERS = {
    "ruleset",
    "players_per_team",
    "league_rounds",
    "league_deals",
    "check_in_required",
    "time_zone",
    "home_country",
}


@pytest.mark.parametrize(
    ("status", "fixed"),
    [
        (TournamentStatus.REGISTRATION, {}),
        (TournamentStatus.LEAGUE, dict.fromkeys(LEAGUE_NUMBERS, DRAW)),
        (
            TournamentStatus.KNOCKOUT,
            dict.fromkeys(LEAGUE_NUMBERS, DRAW) | {"qualifiers": SEEDING},
        ),
        (
            TournamentStatus.FINISHED,
            dict.fromkeys(LEAGUE_NUMBERS, DRAW) | {"qualifiers": SEEDING},
        ),
    ],
)
def test_each_status_fixes_what_its_steps_relied_on(status, fixed):
    assert fixed_settings(status) == fixed
    assert fixed_settings(status.value) == fixed


def test_what_never_fixes_stays_open_and_every_fixed_setting_is_a_setting():
    last = fixed_settings(TournamentStatus.FINISHED)
    assert set(last) <= set(SETTINGS)
    assert set(SETTINGS) - set(last) == {
        "name",
        "starts_on",
        "ends_on",
        "venue",
        "substitutions_allowed",
        "published",
    }


def test_a_later_status_never_frees_a_setting():
    order = list(TournamentStatus)
    for earlier, later in itertools.pairwise(order):
        assert set(fixed_settings(earlier)) <= set(fixed_settings(later))


@pytest.mark.parametrize(
    ("drawn", "seeded", "undecided", "status"),
    [
        (False, False, 0, TournamentStatus.REGISTRATION),
        (True, False, 0, TournamentStatus.LEAGUE),
        (True, True, 3, TournamentStatus.KNOCKOUT),
        (True, True, 0, TournamentStatus.FINISHED),
        # A knockout with no league is no step the site takes: not finished.
        (False, True, 0, TournamentStatus.REGISTRATION),
    ],
)
def test_the_status_is_the_one_the_steps_made(drawn, seeded, undecided, status):
    """What a tournament's file is held to (tournament/backups/api_rules.py)."""
    assert status_made(drawn=drawn, seeded=seeded, undecided=undecided) == status
