"""Logs that keep no key (docs/security.md, "Logs"): every request that carries a link
key, an invitation key, a reset token or an API token is sent, and nothing logged,
by any logger, holds a whole key; production's lines are JSON with the request's
fields, and a 500's line has its error id."""

from __future__ import annotations

import copy
import io
import json
import logging
import logging.config

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.scoring.league import link_key, tables_in_play
from tournament.accounts.services import invitation_create
from tournament.config import settings as site_settings
from tournament.domain.types import Role
from tournament.ops.logs import redact

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged(settings):
    """Everything logged while the test runs, through the site's own logging
    configuration in production's format (JSON lines)."""
    config = copy.deepcopy(site_settings.LOGGING)
    config["handlers"]["console"]["formatter"] = "json"
    config["handlers"]["console"]["level"] = "INFO"
    config["loggers"]["django"]["level"] = "INFO"
    config["loggers"]["fiftysix.request"]["level"] = "INFO"
    config["root"]["level"] = "INFO"
    logging.config.dictConfig(config)
    stream = io.StringIO()
    logging.getLogger().handlers[0].setStream(stream)
    for name in ("django", "django.server"):
        logging.getLogger(name).handlers[0].setStream(stream)
    yield stream
    from django.utils.log import configure_logging

    configure_logging(settings.LOGGING_CONFIG, settings.LOGGING)


def _lines(stream: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in stream.getvalue().splitlines() if line]


def test_no_whole_key_is_logged_by_any_request(logged, monkeypatch):
    tournament, organizer, _, (match, *_) = tables_in_play("log-cup", tables=1, deals=4)
    table = link_key(tournament, table=1)
    team = link_key(tournament, team=match.team_a)
    invitation = invitation_create(
        tournament=tournament, user=organizer, role=Role.SCORER, name="Anil"
    ).key
    token = Token.objects.create(user=organizer).key
    reset = default_token_generator.make_token(organizer)
    uid = urlsafe_base64_encode(force_bytes(organizer.pk))
    secrets = [table, team, invitation, token, reset]

    plain = Client()
    assert plain.get(f"/l/{table}/").status_code == 200
    assert plain.get(f"/l/{team}/").status_code == 200
    # A phone that lost its CSRF cookie posts to its link: refused, and logged.
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(f"/l/{table}/", {"action": "deal"}).status_code == 403
    assert strict.post(f"/l/{team}/", {"action": "check_in"}).status_code == 403
    # A 404 under a link, and a sheet the link does not reach.
    assert plain.get(f"/l/{table}/sheets/999999/").status_code in (403, 404)
    assert plain.get(f"/l/{table}x/").status_code == 404
    assert plain.get(f"/l/{table}/nothing-here/").status_code == 404
    assert plain.get(f"/invitations/{invitation}/").status_code == 200
    assert plain.get(f"/accounts/password/reset/{uid}/{reset}/").status_code == 302
    # The API with `Authorization: Link` and `Token`, answered and refused.
    by_link = APIClient()
    by_link.credentials(HTTP_AUTHORIZATION=f"Link {table}")
    assert by_link.get(f"/api/v1/matches/{match.pk}/").status_code == 200
    assert by_link.post("/api/v1/tournaments/", {}, "json").status_code == 403
    by_token = APIClient()
    by_token.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert by_token.get("/api/v1/tournaments/").status_code == 200
    wrong = APIClient()
    other_end = "1" if token.endswith("0") else "0"
    wrong.credentials(HTTP_AUTHORIZATION=f"Token {token[:-1]}{other_end}")
    assert wrong.get("/api/v1/tournaments/").status_code == 401
    # The development server's line for a link's page.
    logging.getLogger("django.server").info(
        '"%s" %s %s', f"GET /l/{table}/ HTTP/1.1", "200", "1234"
    )
    # Somebody logs a header as it came.
    logging.getLogger("tournament").warning("odd header: Authorization: Link %s", team)

    text = logged.getvalue()
    for secret in secrets:
        assert secret not in text, secret[:4]
        assert secret[:-1] not in text
    # What is logged still tells the keys apart by their first characters.
    assert f"/l/{table[:4]}…/" in text and f"/l/{team[:4]}…/" in text
    assert f"/invitations/{invitation[:4]}…/" in text
    lines = _lines(logged)
    assert any("CSRF" in line["message"] for line in lines)
    requests = [line for line in lines if line["logger"] == "fiftysix.request"]
    assert len(requests) == 13  # one line per request above
    for line in requests:
        assert {"time", "level", "request_id", "method", "path", "status", "ms"} <= set(
            line
        )
    by_organizer = [r for r in requests if r.get("user_id") == organizer.pk]
    assert by_organizer, "a token's request names its user"


def test_a_server_error_names_its_error_id_in_its_line(logged, monkeypatch):
    from tournament import apis

    def broken(self, request):
        raise RuntimeError("boom")

    monkeypatch.setattr(apis.HealthApi, "get", broken)
    answer = Client(raise_request_exception=False).get(
        "/api/v1/health/", HTTP_X_REQUEST_ID="proxy-id-1"
    )
    assert answer.status_code == 500
    error_id = answer.json()["error_id"]
    assert answer["X-Request-ID"] == "proxy-id-1"
    lines = _lines(logged)
    request_line = next(line for line in lines if line["logger"] == "fiftysix.request")
    assert request_line["error_id"] == error_id
    assert request_line["status"] == 500 and request_line["level"] == "ERROR"
    assert request_line["request_id"] == "proxy-id-1"
    error = next(line for line in lines if error_id in line["message"])
    assert error["request_id"] == "proxy-id-1"
    assert "RuntimeError: boom" in error["exc"]


@pytest.mark.parametrize(
    "text, cut",
    [
        ("/l/abcdefghijklmnop/", "/l/abcd…/"),
        ("/l/abcdefghijklmnop/sheets/5/", "/l/abcd…/sheets/5/"),
        ("Not Found: /l/ab/", "Not Found: /l/ab/"),  # too short to be a key
        ("/invitations/Zx_9-abcdefgh/", "/invitations/Zx_9…/"),
        (
            "/accounts/password/reset/MQ/cz4x2b-0123456789abcdef/",
            "/accounts/password/reset/MQ/cz4x…/",
        ),
        (
            "/accounts/password/reset/MQ/set-password/",
            "/accounts/password/reset/MQ/set-password/",
        ),
        ("Authorization: Token 0123456789abcdef", "Authorization: Token 0123…"),
        ("Link abcdefghijk", "Link abcd…"),
        ("/x/?key=abcdefgh&a=1", "/x/?key=abcd…&a=1"),
        # A value named a key or a token: a dict's repr (a task's arguments), JSON.
        ("{'link_key': 'abcdefghijk', 'n': 1}", "{'link_key': 'abcd…', 'n': 1}"),
        ('{"token": "abcdefghijk"}', '{"token": "abcd…"}'),
        ("a monkey: bananas", "a monkey: bananas"),  # a word that ends in key
        ("/api/v1/tournaments/links/links/", "/api/v1/tournaments/links/links/"),
    ],
)
def test_redact_cuts_keys_and_nothing_else(text, cut):
    assert redact(text) == cut
