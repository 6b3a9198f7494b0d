"""While the database cannot be reached, every answer under /api/ is what API.md
promises: 503 `{"detail", "code": "database_unavailable"}` with Retry-After, wherever
the request met the database (DRF's authentication, a view, a service, a
middleware), logged as one warning line; and once it answers again, the next request
is answered as usual, without a restart (tournament/web/unavailable.py)."""

from __future__ import annotations

import logging
import wsgiref.util
from unittest import mock

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.db import OperationalError, connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.models import Deal, SheetChange
from scoring.sheets import services
from tests.factories import UserFactory
from tests.scoring.conftest import deal_body
from tests.scoring.league import link_key, tables_in_play
from tests.unreachable import assert_logged_once, database_down
from tournament.web.unavailable import DETAIL

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "down-but-right-56"


@pytest.fixture
def day():
    """A tournament in play: its match at table 1, the table's link key, an
    organizer's API token, and a user who may ask for a token."""
    tournament, organizer, _, (match, *_) = tables_in_play(
        "down-cup", tables=1, deals=4
    )
    user = UserFactory(username="script-user")
    user.set_password(PASSWORD)
    user.save()
    return {
        "match": match,
        "link": link_key(tournament, table=1),
        "token": Token.objects.create(user=organizer).key,
        "organizer": organizer,
    }


def _client(day, who: str) -> APIClient:
    api = APIClient()
    api.raise_request_exception = False  # as a server: Django answers, never raises
    if who == "token":
        api.credentials(HTTP_AUTHORIZATION=f"Token {day['token']}")
    elif who == "link":
        api.credentials(HTTP_AUTHORIZATION=f"Link {day['link']}")
    elif who == "session":
        api.force_login(day["organizer"])  # its session is in the database
    return api


def _deal(day, number: int = 1) -> dict:
    return {**deal_body(number), "version": day["match"].version}


# Who sends what: (client, method, address, body) from the day above.
REQUESTS = {
    "the standings, anonymous": lambda d: (
        "anonymous",
        "get",
        "/api/v1/tournaments/down-cup/standings/",
        None,
    ),
    "a deal with an Idempotency-Key, by token": lambda d: (
        "token",
        "post",
        f"/api/v1/matches/{d['match'].pk}/deals/",
        _deal(d),
    ),
    "a token for a password": lambda d: (
        "anonymous",
        "post",
        "/api/v1/auth/token/",
        {"username": "script-user", "password": PASSWORD},
    ),
    "a table link's sheet": lambda d: (
        "link",
        "get",
        f"/api/v1/matches/{d['match'].pk}/",
        None,
    ),
    "a table link's deal": lambda d: (
        "link",
        "post",
        f"/api/v1/matches/{d['match'].pk}/deals/",
        _deal(d),
    ),
    "the tournaments, by a signed-in session": lambda d: (
        "session",
        "get",
        "/api/v1/tournaments/",
        None,
    ),
}


@pytest.mark.parametrize("name", sorted(REQUESTS))
def test_every_answer_is_503_database_unavailable_while_it_is_down(day, caplog, name):
    who, method, address, body = REQUESTS[name](day)
    api = _client(day, who)
    send = getattr(api, method)
    keyed = {"HTTP_IDEMPOTENCY_KEY": "down-1"} if method == "post" else {}
    history = SheetChange.objects.filter(match=day["match"]).count()
    caplog.set_level(logging.INFO)
    with database_down() as tries:
        answer = send(address, body, "json", **keyed)
    assert tries.called  # the request did go to the database, and was refused
    assert answer.status_code == 503, answer.content
    assert answer["Content-Type"] == "application/json"
    assert answer.json() == {"detail": DETAIL, "code": "database_unavailable"}
    assert answer["Retry-After"] == "5"
    assert "X-Request-ID" in answer  # its access line was written
    assert_logged_once(caplog.records)

    # The database back, the same request is answered, and a write done once.
    again = send(address, body, "json", **keyed)
    assert again.status_code in (200, 201), again.content
    if method == "post" and "deals" in address:
        assert Deal.objects.filter(match=day["match"]).count() == 1
        assert SheetChange.objects.filter(match=day["match"]).count() == history + 1


def test_the_health_check_keeps_its_own_shape(day):
    """The health check catches the refusal itself and says which check failed
    (docs/deploy.md): the proxy reads that, in the same shape as when it is up."""
    api = _client(day, "anonymous")
    with database_down():
        answer = api.get("/api/v1/health/")
    assert answer.status_code == 503
    body = answer.json()
    assert body["status"] == "degraded"
    assert body["checks"]["database"]["ok"] is False
    assert body["checks"]["database"]["error"] == "OperationalError"


def test_a_connection_lost_in_a_write_saves_nothing(day, caplog):
    """The database goes away between the deal's rows and its history row: the
    transaction is never committed, and the answer says to send it again."""
    api = _client(day, "token")
    address = f"/api/v1/matches/{day['match'].pk}/deals/"
    real = services.change

    def lost(*args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    caplog.set_level(logging.INFO)
    with mock.patch.object(services, "change", lost):
        answer = api.post(address, _deal(day), "json", HTTP_IDEMPOTENCY_KEY="lost-1")
    assert answer.status_code == 503
    assert answer.json()["code"] == "database_unavailable"
    assert answer["Retry-After"] == "5"
    assert_logged_once(caplog.records)
    assert not Deal.objects.filter(match=day["match"]).exists()
    assert services.change is real
    again = api.post(address, _deal(day), "json", HTTP_IDEMPOTENCY_KEY="lost-1")
    assert again.status_code == 201, again.content
    assert Deal.objects.filter(match=day["match"]).count() == 1


def test_another_database_error_mid_write_is_still_database_error(day):
    """A statement the database refuses is not the database being away."""
    from django.db import ProgrammingError

    def refused(*args, **kwargs):
        raise ProgrammingError('relation "scoring_history" does not exist')

    api = _client(day, "token")
    with mock.patch.object(services, "change", refused):
        answer = api.post(
            f"/api/v1/matches/{day['match'].pk}/deals/", _deal(day), "json"
        )
    assert answer.status_code == 503
    assert answer.json()["code"] == "database_error"
    assert not Deal.objects.filter(match=day["match"]).exists()


# PostgreSQL: a real connection, ended by the server.
postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="pg_terminate_backend is PostgreSQL's"
)


def _terminate(pid: int) -> None:
    """Ends backend `pid` from a connection of its own, as a restart of PostgreSQL or
    a proxy dropping idle connections would."""
    other = connection.get_new_connection(connection.get_connection_params())
    try:
        other.autocommit = True
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
            assert cursor.fetchone() == (True,)
    finally:
        other.close()


def _served(path: str) -> int:
    """The status of one request through Django's WSGI handler as a server calls it:
    request_started and request_finished run close_old_connections, which the test
    client leaves out."""
    environ = {
        "PATH_INFO": path,
        "HTTP_HOST": "testserver",
        "SERVER_NAME": "testserver",
    }
    wsgiref.util.setup_testing_defaults(environ)
    said: list[str] = []
    response = WSGIHandler()(environ, lambda status, headers: said.append(status))
    response.close()  # request_finished
    return int(said[0].split()[0])


@postgresql
def test_a_connection_ended_by_the_server_is_replaced_at_the_next_request(
    day, monkeypatch
):
    """Production keeps connections (CONN_MAX_AGE) and checks them (CONN_HEALTH_CHECKS):
    after PostgreSQL ended the kept one, the next request opens a new one and is
    answered as usual, with no restart."""
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
    connection.close()
    standings = "/api/v1/tournaments/down-cup/standings/"
    assert _served(standings) == 200
    assert connection.connection is not None  # kept past the request
    assert connection.health_check_enabled
    kept = connection.connection.info.backend_pid
    _terminate(kept)
    assert _served(standings) == 200
    assert connection.connection.info.backend_pid != kept
    connection.close()


@postgresql
def test_a_connection_ended_in_the_middle_of_a_write_saves_nothing(day, caplog):
    """PostgreSQL ends the request's own connection inside the deal's transaction:
    503 database_unavailable, nothing saved, and the next request reconnects."""
    api = _client(day, "token")
    address = f"/api/v1/matches/{day['match'].pk}/deals/"
    real = services.change

    def ended(*args, **kwargs):
        _terminate(connection.connection.info.backend_pid)
        return real(*args, **kwargs)  # its first query meets the ended connection

    history = SheetChange.objects.filter(match=day["match"]).count()
    caplog.set_level(logging.INFO)
    with mock.patch.object(services, "change", ended):
        answer = api.post(address, _deal(day), "json", HTTP_IDEMPOTENCY_KEY="ended-1")
    assert answer.status_code == 503, answer.content
    assert answer.json()["code"] == "database_unavailable"
    assert_logged_once(caplog.records)
    assert not Deal.objects.filter(match=day["match"]).exists()
    assert SheetChange.objects.filter(match=day["match"]).count() == history
    again = api.post(address, _deal(day), "json", HTTP_IDEMPOTENCY_KEY="ended-1")
    assert again.status_code == 201, again.content
    assert Deal.objects.filter(match=day["match"]).count() == 1
