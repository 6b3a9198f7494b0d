"""Hostile requests against the WSGI application itself (no test client in between),
anonymous and with a token, with DEBUG off as in production and on: every answer
under /api/ is JSON with the status the table says, and none is a server error; the
pages keep their HTML error pages."""

from __future__ import annotations

import io
import json
import logging
import re
from wsgiref.util import setup_testing_defaults

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.test import override_settings
from rest_framework.authtoken.models import Token

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
TOKEN_URL = "/api/v1/auth/token/"
LIST = "/api/v1/tournaments/"


class Cut(io.RawIOBase):
    """A body that stops halfway: the client went away mid-upload."""

    def __init__(self, head: bytes) -> None:
        self.head = head

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if not self.head:
            raise OSError("connection reset by peer")
        size = min(len(buffer), len(self.head))
        buffer[:size] = self.head[:size]
        self.head = self.head[size:]
        return size


@pytest.fixture
def in_process():
    """The WSGI app on the test's own connection (as tests/test_api_fuzz.py)."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield WSGIHandler()
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def call(
    app, method, path, body=b"", *, query="", headers=None, length=None, stream=None
):
    """One request straight into the WSGI app: status, headers, body."""
    environ: dict = {}
    setup_testing_defaults(environ)
    environ.update(
        REQUEST_METHOD=method,
        PATH_INFO=path,
        QUERY_STRING=query,
        SERVER_NAME="testserver",
        HTTP_HOST="testserver",
        CONTENT_LENGTH=str(len(body) if length is None else length),
        CONTENT_TYPE="application/json",
    )
    environ.update(headers or {})
    environ["wsgi.input"] = stream if stream is not None else io.BytesIO(body)
    answer: dict = {}

    def start_response(status, response_headers, exc_info=None):
        answer["status"] = int(status.split()[0])
        answer["headers"] = dict(response_headers)

    content = b"".join(app(environ, start_response))
    return answer["status"], answer["headers"], content


def _json(headers, content) -> dict:
    assert headers["Content-Type"].startswith("application/json"), (
        headers,
        content[:200],
    )
    body = json.loads(content)
    assert isinstance(body, dict) and body, body
    return body


def _form(count: int) -> bytes:
    return "&".join(f"f{n}=1" for n in range(count)).encode()


NESTED = b"[" * 100_000 + b"]" * 100_000
# (name, method, path, body, extra: query/headers/length/stream, status, words)
CASES = [
    ("deep nesting", "POST", TOKEN_URL, NESTED, {}, 400, "deeper than 32 levels"),
    (
        "deep nesting, objects",
        "POST",
        TOKEN_URL,
        b'{"a":' * 5000 + b"1" + b"}" * 5000,
        {},
        400,
        "deeper than 32 levels",
    ),
    (
        "body over the limit",
        "POST",
        TOKEN_URL,
        b"{}",
        {"length": 20 * 1024 * 1024},
        413,
        "larger than 1 MB",
    ),
    (
        "upload over the limit",
        "POST",
        "/api/v1/tournaments/x/teams/import/",
        b"",
        {
            "length": 50 * 1024 * 1024,
            "headers": {"CONTENT_TYPE": "multipart/form-data; boundary=x"},
        },
        413,
        "the most an upload may be",
    ),
    (
        # The API's bodies are JSON only (uploads multipart): a form of any size
        # is refused by its media type before a field of it is read.
        "5,000 form fields",
        "POST",
        TOKEN_URL,
        _form(5000),
        {"headers": {"CONTENT_TYPE": "application/x-www-form-urlencoded"}},
        415,
        "application/x-www-form-urlencoded",
    ),
    (
        "5,000 query parameters",
        "GET",
        LIST,
        b"",
        {"query": _form(5000).decode()},
        400,
        "more than 1,000 parameters",
    ),
    ("unknown address", "GET", "/api/v1/nowhere/", b"", {}, 404, "no such address"),
    (
        "an id past any number",
        "GET",
        "/api/v1/matches/99999999999999999999999/",
        b"",
        {},
        404,
        "",
    ),
    ("bad JSON", "POST", TOKEN_URL, b'{"username": ', {}, 400, "JSON parse error"),
    ("NaN", "POST", TOKEN_URL, b'{"username": NaN}', {}, 400, "JSON parse error"),
    ("not UTF-8", "POST", TOKEN_URL, b'{"username": "\xff\xfe"}', {}, 400, "not UTF-8"),
    (
        "a 5,000-digit number",
        "POST",
        TOKEN_URL,
        b'{"username": ' + b"9" * 5000 + b"}",
        {},
        400,
        "JSON parse error",
    ),
    (
        "unknown media type",
        "POST",
        TOKEN_URL,
        b"username=a",
        {"headers": {"CONTENT_TYPE": "text/csv"}},
        415,
        "text/csv",
    ),
    ("a list for an object", "POST", TOKEN_URL, b"[1, 2]", {}, 400, ""),
    ("null for a value", "POST", TOKEN_URL, b'{"username": null}', {}, 400, "username"),
    (
        "headers of 100 KB",
        "GET",
        LIST,
        b"",
        {"headers": {"HTTP_X_PADDING": "x" * 100_000}},
        431,
        "larger than 32 KB",
    ),
    (
        "a Content-Length past the body",
        "POST",
        TOKEN_URL,
        b'{"username": "a"}',
        {"length": 1000},
        400,
        "",
    ),
    (
        "a Content-Length short of the body",
        "POST",
        TOKEN_URL,
        b'{"username": "a", "password": "b"}',
        {"length": 5},
        400,
        "JSON parse error",
    ),
    (
        "a Content-Length that is not a number",
        "POST",
        TOKEN_URL,
        b"{}",
        {"length": "lots"},
        400,
        "not a number",
    ),
    (
        "chunked",
        "POST",
        TOKEN_URL,
        b"{}",
        {"headers": {"HTTP_TRANSFER_ENCODING": "chunked"}},
        411,
        "Content-Length",
    ),
    (
        "a body cut off halfway",
        "POST",
        TOKEN_URL,
        b"",
        {"length": 2000, "stream": io.BufferedReader(Cut(b'{"username": "a'))},
        400,
        "cannot be read",
    ),
    ("a method the route lacks", "PATCH", TOKEN_URL, b"{}", {}, 405, "PATCH"),
    (
        "a write the caller may not make",
        "DELETE",
        LIST,
        b"",
        {},
        {"anonymous": 401, "token": 405},
        "",
    ),
    ("PUT on the token", "PUT", TOKEN_URL, b"{}", {}, 405, ""),
]


@pytest.mark.parametrize("debug", [False, True], ids=["production", "debug"])
@pytest.mark.parametrize("who", ["anonymous", "token"])
@pytest.mark.parametrize(
    ("name", "method", "path", "body", "extra", "status", "words"),
    CASES,
    ids=[c[0] for c in CASES],
)
def test_a_hostile_request_gets_its_json_answer(
    in_process, who, debug, name, method, path, body, extra, status, words
):
    headers = dict(extra.get("headers", {}))
    if who == "token":
        headers["HTTP_AUTHORIZATION"] = (
            f"Token {Token.objects.create(user=UserFactory()).key}"
        )
    if name == "a body cut off halfway":
        extra = {**extra, "stream": io.BufferedReader(Cut(b'{"username": "a'))}
    with override_settings(DEBUG=debug):
        got, answer_headers, content = call(
            in_process,
            method,
            path,
            body,
            query=extra.get("query", ""),
            headers=headers,
            length=extra.get("length"),
            stream=extra.get("stream"),
        )
    if isinstance(status, dict):
        status = status[who]
    assert got == status, (got, content[:300])
    answer = _json(answer_headers, content)
    assert words in json.dumps(answer), answer
    if "detail" in answer:  # a refusal that names no field says what it is
        assert re.fullmatch(r"[a-z_]+", answer["code"]), answer
    assert "Traceback" not in content.decode("utf-8", "replace")


@pytest.mark.parametrize("debug", [False, True], ids=["production", "debug"])
def test_a_server_error_is_json_with_an_id_that_the_log_has(
    in_process, monkeypatch, caplog, debug
):
    def broken(*args, **kwargs):
        raise RuntimeError("the disk caught fire")

    monkeypatch.setattr("tournament.apis.tournament_list_visible", broken)
    with override_settings(DEBUG=debug), caplog.at_level(logging.ERROR):
        status, headers, content = call(in_process, "GET", LIST)
    assert status == 500
    answer = _json(headers, content)
    assert answer["code"] == "server_error"
    assert re.fullmatch(r"[0-9a-f]{12}", answer["error_id"])
    assert "fire" not in content.decode() and "Traceback" not in content.decode()
    logged = [r for r in caplog.records if answer["error_id"] in r.getMessage()]
    assert logged and "the disk caught fire" in logged[0].exc_text


def test_a_session_write_without_its_csrf_token_is_a_json_403(client):
    from django.test import Client

    user = UserFactory()
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    answer = browser.post(
        "/api/v1/tournaments/", {"name": "X"}, content_type="application/json"
    )
    assert answer.status_code == 403
    assert "CSRF" in answer.json()["detail"]


def test_the_pages_keep_their_html_error_pages(in_process):
    status, headers, content = call(in_process, "GET", "/t/no-such-cup/")
    assert status == 404
    assert headers["Content-Type"].startswith("text/html")
    page = content.decode()
    assert "<h1>Not found</h1>" in page and 'class="brand"' in page
    status, headers, content = call(
        in_process, "GET", "/t/", query=_form(5000).decode()
    )
    assert status in (400, 404) and headers["Content-Type"].startswith("text/html")
