"""Redis gone on tournament day (docs/deploy.md, "When Redis or the worker dies"): the
broker and the cache refuse connections, and the site keeps answering. A write that
queues a task answers as it would, at once, and says in one log line what the task
would have done; the workbook, which needs the worker, is refused 503
`worker_unavailable` and its job failed, not left queued; the cache is bypassed;
health says what is down; logins are still counted.

The site is pointed at a Redis server of the test's own (tests/redis_server.py),
which is killed: the machine's shared Redis is never stopped."""

from __future__ import annotations

import logging
import time

import pytest

from scoring.models import EXPORT_UNSENT, ExportJob, Match
from tests.conftest import as_user
from tests.factories import UserFactory
from tests.redis_server import RedisServer, celery_on
from tests.scoring.apis.test_sheet import fill, url
from tournament.backups.services import backup_take
from tournament.models import SheetCopy

SENT_WITHIN = 3.0  # seconds: a dead broker is given about one (REDIS_TIMEOUT_SECONDS)


@pytest.fixture
def redis_up(monkeypatch, settings):
    """The site on a Redis of its own (broker and cache), used once, so that the
    site holds pooled connections to it. Yields the server."""
    from django.core.cache import cache

    from tournament.config.celery import app

    server = RedisServer()
    server.start()
    forget_connections = celery_on(server.url(1), monkeypatch, settings)
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": server.url(2),
            "OPTIONS": {
                "socket_connect_timeout": settings.REDIS_TIMEOUT_SECONDS,
                "socket_timeout": settings.REDIS_TIMEOUT_SECONDS,
            },
        }
    }
    forget_connections()
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1)
        from tournament.tasks import health_check

        health_check.apply_async(ignore_result=True)  # a pooled connection, live
        cache.set("warm", 1)
        yield server
    finally:
        server.stop()
        forget_connections()


@pytest.fixture
def redis_gone(redis_up):
    """That Redis killed: the site's pooled connections are dead ones, as after a
    crash. Yields the server, to start again."""
    redis_up.stop()
    return redis_up


def _timed(call):
    started = time.monotonic()
    answer = call()
    return answer, time.monotonic() - started


def _warnings(caplog, text: str) -> list[logging.LogRecord]:
    return [
        r
        for r in caplog.records
        if r.levelno == logging.WARNING and text in r.getMessage()
    ]


# Committed for real (transaction=True): a task is sent after the commit, inside the
# request, and its time counts in the answer's.
@pytest.mark.django_db(transaction=True)
def test_a_sheet_locks_while_redis_is_down_and_the_next_backup_copies_it(
    api, match, organizer, redis_gone, caplog
):
    as_user(api, organizer)
    version = fill(api, match)
    caplog.set_level(logging.WARNING)
    locked, took = _timed(
        lambda: api.post(url(match, "confirm/"), {"version": version}, "json")
    )
    assert locked.status_code == 200, locked.content
    assert locked.json()["status"] == "confirmed"
    assert took < SENT_WITHIN
    said = _warnings(caplog, "tournament.sheet_copy_keep not sent")
    assert len(said) == 1 and said[0].exc_info is None
    assert "the next backup of the tournament copies the sheet itself" in (
        said[0].getMessage()
    )
    # The copy the task would have kept is made by the next backup.
    match.refresh_from_db()
    assert not SheetCopy.objects.filter(sheet=match.pk).exists()
    backup_take(tournament=match.tournament, reason="by hand")
    copy = SheetCopy.objects.get(sheet=match.pk)
    assert copy.version == match.version


@pytest.mark.django_db(transaction=True)
def test_the_workbook_is_refused_503_and_its_job_failed_not_queued(
    api, client, match, organizer, redis_gone
):
    as_user(api, organizer)
    exports = f"/api/v1/tournaments/{match.tournament.slug}/exports/"
    refused, took = _timed(lambda: api.post(exports))
    assert took < SENT_WITHIN
    assert refused.status_code == 503, refused.content
    body = refused.json()
    assert body["code"] == "worker_unavailable"
    assert "the worker's queue cannot be reached" in body["detail"]
    assert refused["Retry-After"] == "30"
    job = ExportJob.objects.get(pk=body["job"])
    assert (job.status, job.error, job.content) == ("failed", EXPORT_UNSENT, None)
    shown = api.get(f"/api/v1/exports/{job.pk}/")
    assert shown.status_code == 200 and shown.json()["status"] == "failed"

    # The Excel tab says so in the visitor's language.
    client.force_login(organizer)
    page = f"/t/{match.tournament.slug}/excel/"
    for language, words in (
        ("en", "the worker's queue cannot be reached"),
        ("ml", "പശ്ചാത്തല വർക്കറുടെ ക്യൂവിൽ എത്താൻ കഴിയുന്നില്ല"),
    ):
        fragment = client.post(
            page,
            {"action": "export"},
            HTTP_HX_REQUEST="true",
            HTTP_ACCEPT_LANGUAGE=language,
        )
        assert fragment.status_code == 200
        assert words in fragment.content.decode()
        assert "hx-trigger" not in fragment.content.decode()  # nothing to poll
        again = client.get(page, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert words in again
    assert not ExportJob.objects.filter(status__in=("queued", "running")).exists()

    # Redis back: the next request is sent, and queued.
    redis_gone.start()
    queued = api.post(exports)
    assert queued.status_code == 202, queued.content
    assert queued.json()["status"] == "queued"


@pytest.mark.django_db
def test_health_statistics_and_logins_answer_while_redis_is_down(
    api, match, organizer, redis_gone, caplog
):
    caplog.set_level(logging.WARNING)
    health, took = _timed(lambda: api.get("/api/v1/health/"))
    assert took < SENT_WITHIN
    assert health.status_code == 200
    body = health.json()
    assert body["status"] == "degraded"
    assert body["checks"]["database"]["ok"] is True
    for down in ("cache", "broker", "worker"):
        assert body["checks"][down]["ok"] is False, body["checks"][down]

    slug = match.tournament.slug
    assert Match.objects.filter(tournament__slug=slug).exists()
    caplog.clear()
    stats = api.get(f"/api/v1/tournaments/{slug}/statistics/")
    assert stats.status_code == 200
    missed = _warnings(caplog, "cache unavailable")
    assert missed and all(r.exc_info is None for r in missed)

    # The lockout counts in the database: five failures still lock the pair out.
    user = UserFactory(username="redis-less")
    user.set_password("right-password-56")
    user.save()
    body = {"username": "redis-less", "password": "nope"}
    answers = [
        api.post("/api/v1/auth/token/", body, "json").status_code for _ in range(5)
    ]
    assert answers == [400, 400, 400, 400, 429]


@pytest.mark.django_db(transaction=True)
def test_a_frozen_redis_holds_a_write_a_few_seconds_not_for_ever(
    api, match, organizer, redis_up, caplog
):
    """Redis that accepts connections and answers nothing (stopped, not dead): each
    command is given REDIS_TIMEOUT_SECONDS, and the send is tried twice."""
    as_user(api, organizer)
    version = fill(api, match)
    caplog.set_level(logging.WARNING)  # a worker of the session may have raised it
    redis_up.freeze()
    try:
        locked, took = _timed(
            lambda: api.post(url(match, "confirm/"), {"version": version}, "json")
        )
    finally:
        redis_up.thaw()
    assert locked.status_code == 200, locked.content
    assert took < 2 * SENT_WITHIN
    assert len(_warnings(caplog, "tournament.sheet_copy_keep not sent")) == 1
