"""Shared fixtures. With CELERY_BROKER_URL set (the PostgreSQL pass of `make test`), a
real Celery worker consumes the broker for the whole session; otherwise tasks run
eagerly."""

import os
import re
import shutil
import time
from functools import partial
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connections
from django.utils import timezone, translation
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

from tests.factories import (
    SectionFactory,
    TeamFactory,
    TournamentFactory,
    UserFactory,
    member,
)
from tournament.domain.types import Role

# Hypothesis checks what a rule gives, not how fast: its 200 ms deadline per example
# failed a pure test that takes 0.05 ms once, when the suite's other workers and a
# browser held both cores for a quarter of a second (issue 52's run). Speed is the
# benchmarks' to show (bench/), never a test's.
hypothesis_settings.register_profile("suite", deadline=None)
hypothesis_settings.load_profile("suite")

# The PostgreSQL pass of `make test` runs only the tests that use the database (or the
# Celery worker, which needs it): the others (the pure rules, the layers, the settings
# read in a process of their own) ran in the SQLite pass and do not touch PostgreSQL
# (CONTRIBUTING.md, "The tests").
USES_DATABASE = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
    "celery_worker_running",
}


def pytest_addoption(parser):
    parser.addoption(
        "--database-tests-only",
        action="store_true",
        help="run only the tests that use the database (the PostgreSQL pass)",
    )


def uses_database(item) -> bool:
    fixtures = set(getattr(item, "fixturenames", ()))
    return item.get_closest_marker("django_db") is not None or bool(
        fixtures & USES_DATABASE
    )


def pytest_collection_modifyitems(config, items):
    if not config.getoption("--database-tests-only"):
        return
    kept = [item for item in items if uses_database(item)]
    left = [item for item in items if not uses_database(item)]
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


@pytest.fixture(autouse=True)
def _site_language_and_zone():
    """Each test starts in the site's language and time zone, whatever a test before
    it on the same worker activated (pytest-xdist runs them in any order): a message
    a test reads is in the language it asks for, never in the last one's."""
    translation.deactivate()
    timezone.deactivate()
    yield
    translation.deactivate()
    timezone.deactivate()


# Whether this process's session worker runs (celery_worker_running), and the broker
# it reads.
WORKER: dict = {"started": False, "broker": None}


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
        WORKER["started"] = True
        WORKER["broker"] = app.conf.broker_read_url
        yield worker
    WORKER["started"] = False


@pytest.fixture(autouse=True)
def _worker_idle_after():
    """After a test with the real worker (the PostgreSQL pass), wait until the tasks it
    queued have been taken and run: a task still reading when the test's database is
    flushed deadlocks the flush's TRUNCATE (it did, once, after a workbook's build).
    Tasks waiting for a later time are not waited for; at most 30 s."""
    yield
    # Every test once the session's worker runs: a test that does not ask for it
    # still has its tasks run by it (the same queue), as a backup's copies are.
    if not WORKER["started"] or settings.CELERY_TASK_ALWAYS_EAGER:
        return
    from celery.worker import state

    from tournament.config.celery import app

    deadline = time.monotonic() + 30
    # The session worker's broker by name: a test's own Redis (tests/redis_server.py)
    # is named by $CELERY_BROKER_URL until its monkeypatch is undone, after this.
    with app.connection_for_read(WORKER["broker"]) as connection:
        channel = connection.default_channel
        while time.monotonic() < deadline:
            try:
                waiting = channel.queue_declare(
                    queue=settings.CELERY_TASK_DEFAULT_QUEUE, passive=True
                ).message_count
            except Exception:  # no such queue yet: nothing waits
                waiting = 0
            if not waiting and not state.active_requests:
                return
            time.sleep(0.05)


def _run_here(task, args=None, kwargs=None, **options):
    return task.apply(args, kwargs)


@pytest.fixture(autouse=True)
def _mail_in_the_test(monkeypatch):
    """With a real broker (the PostgreSQL pass), the mail's tasks run in the test that
    queues them, as eager Celery runs them: their tests read mail.outbox at once, and
    the account a reset mail looks up is in the test's own transaction, which a
    worker cannot see."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        yield
        return
    from tournament.ops.mail import mail_send
    from tournament.web.security import password_reset_mail

    for task in (mail_send, password_reset_mail):
        monkeypatch.setattr(task, "apply_async", partial(_run_here, task))
    yield


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


# Screenshots of a browser test's steps, written to artifacts/browser/<test>/ when it
# fails, with a last one of every page still open (the folder is not committed).
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "browser"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


class Steps:
    """`steps(page, "what was done")` after each step of a browser test; every page
    passed in is watched for content-security-policy violations too."""

    def __init__(self) -> None:
        self.shots: list[tuple[str, bytes]] = []
        self.pages: list = []
        self.violations: list[str] = []

    def watch(self, page):
        self.pages.append(page)
        page.on(
            "console",
            lambda message: (
                self.violations.append(
                    f"{page.url}: {message.text} at {message.location}"
                )
                if "Content Security Policy" in message.text
                else None
            ),
        )
        return page

    def __call__(self, page, name: str) -> None:
        self.shots.append((name, page.screenshot(full_page=True)))


@pytest.fixture
def steps(request, browser):
    taken = Steps()
    yield taken
    report = getattr(request.node, "report_call", None)
    if report is None or not report.failed:
        return
    folder = ARTIFACTS / re.sub(r"[^\w.-]+", "_", request.node.name)
    folder.mkdir(parents=True, exist_ok=True)
    for n, (name, png) in enumerate(taken.shots, 1):
        slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
        (folder / f"{n:02d}-{slug}.png").write_bytes(png)
    for n, page in enumerate(taken.pages, 1):
        if not page.is_closed():
            page.screenshot(path=str(folder / f"failed-page-{n}.png"), full_page=True)
