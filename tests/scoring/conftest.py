"""Fixtures of score sheets: a league match between two teams of different sections."""

import os
import shutil

import pytest
from django.db import connections

from scoring import services
from tests.factories import TeamFactory


@pytest.fixture
def away_team(sections):
    return TeamFactory(section=sections["chicago"], name="Chicago Jacks")


@pytest.fixture
def match(tournament, team, away_team, organizer):
    """Round 1, table 1: Edison Aces (A) v Chicago Jacks (B), 18 deals."""
    return services.match_create(
        tournament=tournament,
        user=organizer,
        team_a=team.pk,
        team_b=away_team.pk,
        round=1,
        table=1,
    )


@pytest.fixture
def away_captain(tournament, away_team):
    from tests.factories import member
    from tournament.domain.types import Role

    return member(tournament, Role.CAPTAIN, "cap-b", team=away_team)


def deal_body(number, declarer="A", value=40, trump="clubs", level="none", taken=40):
    return {
        "number": number,
        "declarer": declarer,
        "value": value,
        "trump": trump,
        "level": level,
        "taken": taken,
    }


# The browser tests drive Debian's chromium through Playwright.
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--no-first-run",
]


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    assert os.path.exists(CHROMIUM), "Debian's chromium is missing: run `make browser`"
    # Playwright runs an event loop in this thread; the live server's database work
    # happens in its own thread, and the test's own reads are plain and short.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()
        # The test's own reads ran inside Playwright's event loop, on a connection of
        # that context: close it, or the test database cannot be dropped.
        connections.close_all()
    del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
