"""Shared fixtures. With CELERY_BROKER_URL set (the PostgreSQL pass of `make test`), a
real Celery worker consumes the broker for the whole session; otherwise tasks run
eagerly."""

import os
import shutil

import pytest
from django.conf import settings
from django.db import connections
from rest_framework.test import APIClient

from tests.factories import (
    SectionFactory,
    TeamFactory,
    TournamentFactory,
    UserFactory,
    member,
)
from tournament.domain.types import Role


@pytest.fixture(scope="session")
def celery_worker_running(django_db_setup, django_db_blocker):
    """A Celery worker thread on the real broker (None when tasks run eagerly)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        yield None
        return
    from celery.contrib.testing.worker import start_worker

    from tournament.config.celery import app

    with (
        django_db_blocker.unblock(),
        start_worker(
            app, pool="solo", perform_ping_check=False, shutdown_timeout=30
        ) as worker,
    ):
        yield worker


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def tournament(db):
    return TournamentFactory(name="Spring Open", slug="spring-open")


@pytest.fixture
def sections(tournament):
    """Two US sections: Tri-State by state, Chicago by city (Illinois is Midwest's)."""
    return {
        "tri": SectionFactory(
            tournament=tournament, name="Tri-State", states=["NJ", "NY"]
        ),
        "chicago": SectionFactory(
            tournament=tournament, name="Chicago", cities=["Chicago"]
        ),
        "midwest": SectionFactory(
            tournament=tournament, name="Midwest", states=["IL", "MI"]
        ),
    }


@pytest.fixture
def organizer(tournament):
    return member(tournament, Role.ORGANIZER, "org")


@pytest.fixture
def scorer(tournament):
    return member(tournament, Role.SCORER, "scorer")


@pytest.fixture
def team(sections):
    return TeamFactory(section=sections["tri"], name="Edison Aces")


@pytest.fixture
def captain(tournament, team):
    return member(tournament, Role.CAPTAIN, "cap", team=team)


@pytest.fixture
def other_tournament(db):
    return TournamentFactory(name="Other Cup", slug="other-cup")


@pytest.fixture
def outsider(db):
    return UserFactory(username="outsider")


def as_user(api: APIClient, user) -> APIClient:
    api.force_authenticate(user=user)
    return api


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
