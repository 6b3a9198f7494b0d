"""Every line every process of a production site writes is one JSON object, and none
holds a whole key (issue 51, "Secrets in the log"; docs/security.md, "Logs").

The site runs as production runs it, with its own scripts and settings (DJANGO_DEBUG
false, no EMAIL_URL, everything logged from DEBUG up): deploy/start-web (first
deploy/migrate, its dump and migrate's own lines, then gunicorn), deploy/start-worker
on a Redis of the test's own, collectstatic as the image runs it, and a management
command that dies of an uncaught exception. Every kind of key is sent through them:
table and team link keys in paths, an invitation key, a site invitation made through
the API (its mail not sent: the site has none), a password reset token, an API token
and a link key in `Authorization`, `key=` and `token=` in a query, tasks whose
arguments carry keys (one of a name the worker does not know: Celery logs its whole
message), and a request whose worker is killed by gunicorn's timeout while it reads
the body of a link's POST (gunicorn's own "Error handling request <path>"). Then
everything each process wrote, stdout and stderr, is read. What each logger cuts,
in process: tests/config/test_logs.py."""

from __future__ import annotations

import http.client
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from celery import Celery

from tests.redis_server import RedisServer, free_port

ROOT = Path(__file__).resolve().parents[2]
HOST = "site.test"
CSRF = "c" * 32  # a cookie's CSRF secret, sent back as the form's token
# Made and printed by a management command of the site, which then dies of an
# uncaught exception naming the table's link.
SEED = """
import json
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from rest_framework.authtoken.models import Token
from tests.scoring.league import link_key, tables_in_play
from tournament.domain.types import Role
from tournament.accounts.services import invitation_create

tournament, organizer, _, (match, *_) = tables_in_play("log-cup", tables=1, deals=4)
organizer.email = "org@example.org"
organizer.is_superuser = True
organizer.save()
keys = {
    "table": link_key(tournament, table=1),
    "team": link_key(tournament, team=match.team_a),
    "invitation": invitation_create(
        tournament=tournament, user=organizer, role=Role.SCORER, name="Anil"
    ).key,
    "token": Token.objects.create(user=organizer).key,
    "reset": default_token_generator.make_token(organizer),
    "uid": urlsafe_base64_encode(force_bytes(organizer.pk)),
    "match": match.pk,
}
print(json.dumps(keys), flush=True)
raise RuntimeError(f"a command's own error at /l/{keys['table']}/sheets/")
"""
# A password reset link's token wherever it is written: "<time in base 36>-<hash>".
RESET_TOKEN = re.compile(r"reset/[\w-]+/[0-9a-z]{1,13}-[0-9a-f]{20,}")


class Site:
    """The processes of one production site in `folder`, each one's output in a
    file of its own."""

    def __init__(self, folder: Path, redis: RedisServer) -> None:
        self.folder = folder
        self.port = free_port()
        self.processes: dict[str, subprocess.Popen] = {}
        inherited = {
            name: value
            for name, value in os.environ.items()
            if not name.startswith(("DJANGO_", "DATABASE_", "CELERY_", "EMAIL_"))
            and name not in ("LOG_FORMAT", "CACHE_URL", "PYTEST_XDIST_WORKER")
        }
        self.env = inherited | {
            "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
            "HOME": str(folder),  # gunicorn's control socket, the test's own
            "PYTHONUNBUFFERED": "1",
            "DJANGO_SETTINGS_MODULE": "tournament.config.settings",
            "DJANGO_DEBUG": "false",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DJANGO_ALLOWED_HOSTS": HOST,
            "DJANGO_LOG_LEVEL": "DEBUG",
            "FIFTYSIX_VAR_DIR": str(folder / "var"),
            "CELERY_BROKER_URL": redis.url(0),
            "MIGRATE_ON_START": "1",
            "WEB_BIND": f"127.0.0.1:{self.port}",
            "WEB_CONCURRENCY": "1",
            "WEB_TIMEOUT": "2",
            "WORKER_CONCURRENCY": "1",
        }

    def start(self, name: str, *command: str) -> subprocess.Popen:
        out = (self.folder / f"{name}.out").open("wb")
        err = (self.folder / f"{name}.err").open("wb")
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=self.env,
            stdout=out,
            stderr=err,
            start_new_session=True,  # its children too are stopped with it
        )
        self.processes[name] = process
        return process

    def output(self, name: str, stream: str = "err") -> str:
        return (self.folder / f"{name}.{stream}").read_text(encoding="utf-8")

    def wait_for(self, name: str, words: str, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while words not in self.output(name):
            assert self.processes[name].poll() is None, f"{name} stopped"
            assert time.monotonic() < deadline, f"{name} never said {words!r}"
            time.sleep(0.1)

    def ask(self, method: str, path: str, headers=None, body: bytes = b""):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        try:
            sent = {"Host": HOST, "X-Forwarded-Proto": "https"} | (headers or {})
            connection.request(method, path, body=body or None, headers=sent)
            answer = connection.getresponse()
            return answer.status, answer.read()
        finally:
            connection.close()

    def stop(self, name: str, sig: int = signal.SIGTERM, seconds: float = 30) -> None:
        process = self.processes[name]
        if process.poll() is None:
            os.killpg(process.pid, sig)
        try:
            process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


@pytest.fixture
def site(tmp_path):
    redis = RedisServer()
    redis.start()
    running = Site(tmp_path, redis)
    yield running
    for name, process in running.processes.items():
        if process.poll() is None:
            running.stop(name, signal.SIGKILL, seconds=10)
    redis.stop()


def _web_answers(site: Site) -> None:
    deadline = time.monotonic() + 90  # deploy/migrate first
    while True:
        assert site.processes["web"].poll() is None, site.output("web")[-3000:]
        try:
            if site.ask("GET", "/api/v1/health/")[0] == 200:
                return
        except OSError:
            pass
        assert time.monotonic() < deadline, "the web never answered"
        time.sleep(0.2)


def _form(fields: dict) -> tuple[dict, bytes]:
    """A form's POST as a browser on the site sends it, CSRF cookie and token."""
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": f"csrftoken={CSRF}",
        "Origin": f"https://{HOST}",
        "Referer": f"https://{HOST}/",
    }
    body = "&".join(f"{k}={v}" for k, v in fields.items())
    return headers, body.encode()


def _requests(site: Site, keys: dict) -> list[str]:
    """Every kind of key through the web; the secrets it made or was sent."""
    table, team, token = keys["table"], keys["team"], keys["token"]
    query_key, query_token = secrets.token_urlsafe(12), secrets.token_urlsafe(12)
    other_end = "1" if token.endswith("0") else "0"
    asked = [
        ("GET", f"/l/{table}/", {}, 200),
        ("GET", f"/l/{team}/", {}, 200),
        ("GET", f"/l/{table}x/", {}, 404),
        ("GET", f"/l/{table}/sheets/999999/", {}, 403),  # not a sheet it reaches
        ("POST", f"/l/{team}/", {}, 403),  # no CSRF cookie: refused, and logged
        ("GET", f"/invitations/{keys['invitation']}/", {}, 200),
        ("GET", f"/accounts/password/reset/{keys['uid']}/{keys['reset']}/", {}, 302),
        ("GET", "/api/v1/tournaments/", {"Authorization": f"Token {token}"}, 200),
        (
            "GET",
            "/api/v1/tournaments/",
            {"Authorization": f"Token {token[:-1]}{other_end}"},
            401,
        ),
        (
            "GET",
            f"/api/v1/matches/{keys['match']}/",
            {"Authorization": f"Link {table}"},
            200,
        ),
        ("GET", f"/t/log-cup/?key={query_key}&token={query_token}", {}, 200),
    ]
    for method, path, headers, status in asked:
        assert site.ask(method, path, headers)[0] == status, (method, path[:12])
    # A site invitation by the API, to an address: this site has no mail.
    status, answer = site.ask(
        "POST",
        "/api/v1/site/invitations/",
        {"Authorization": f"Token {token}", "Content-Type": "application/json"},
        json.dumps({"role": "creator", "email": "new@example.org"}).encode(),
    )
    assert status == 201, answer
    site_invitation = json.loads(answer)["url"].rstrip("/").rsplit("/", 1)[1]
    assert site.ask("GET", f"/site/invitations/{site_invitation}/")[0] == 200
    # The reset page of a site with no mail, asked anyway: it says so.
    headers, body = _form({"csrfmiddlewaretoken": CSRF, "email": "org@example.org"})
    status, page = site.ask("POST", "/accounts/password/reset/", headers, body)
    assert status == 200 and b"This site sends no e-mail" in page
    return [query_key, query_token, site_invitation]


def _tasks(site: Site, redis: str, keys: dict) -> str:
    """Tasks sent to the worker's queue by name, as the web sends them, their
    arguments carrying keys; the key of the one the worker does not know."""
    unknown = secrets.token_urlsafe(32)
    # Not the current app: the site's shared tasks would be bound to this one, its
    # connections to this test's Redis, in every later test of this process.
    sender = Celery(broker=redis, set_as_current=False)
    link = f"https://{HOST}/invitations/{keys['invitation']}/"
    sender.send_task(
        "tournament.mail_send",
        ["Invitation: Log Cup", f"Open this link to accept:\n{link}\n", ["a@b.org"]],
    )
    sender.send_task(
        "tournament.password_reset_mail", ["org@example.org", HOST, True, "en"]
    )
    sender.send_task(
        "tournament.no_such_task",
        [f"/l/{keys['table']}/?key={unknown}", f"Authorization: Token {keys['token']}"],
    )
    sender.close()
    site.wait_for("worker", "Received unregistered task")
    deadline = time.monotonic() + 30
    while site.output("worker").count("mail not sent") < 2:
        assert time.monotonic() < deadline, "the worker did not send both mails"
        time.sleep(0.1)
    return unknown


def _timed_out(site: Site, table: str) -> str:
    """A link's POST whose body never comes: gunicorn's timeout kills its worker
    mid-request, and gunicorn logs the request's path and the traceback."""
    secret = secrets.token_urlsafe(12)
    headers, _ = _form({})
    head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    with socket.create_connection(("127.0.0.1", site.port), timeout=30) as slow:
        slow.sendall(
            f"POST /l/{table}/?token={secret} HTTP/1.1\r\nHost: {HOST}\r\n"
            f"X-Forwarded-Proto: https\r\n{head}Content-Length: 100\r\n\r\na=1".encode()
        )
        site.wait_for("web", "Error handling request", seconds=30)
    return secret


def _lines(text: str, where: str) -> list[dict]:
    lines = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            parsed = json.loads(line)
        except ValueError:
            pytest.fail(f"{where}: not a JSON line: {line[:300]}")
        assert isinstance(parsed, dict), f"{where}: {line[:300]}"
        lines.append(parsed | {"where": where})
    return lines


def test_every_line_of_every_process_is_json_and_holds_no_whole_key(site, tmp_path):
    python = sys.executable
    static = site.start(
        "collectstatic", python, "manage.py", "collectstatic", "--no-input", "-v", "0"
    )
    site.start("web", "deploy/start-web")
    _web_answers(site)
    site.start("worker", "deploy/start-worker")
    seed = site.start("seed", python, "manage.py", "shell", "-v", "0", "-c", SEED)
    assert seed.wait(timeout=60) == 1  # its uncaught exception
    keys = json.loads(site.output("seed", "out"))
    assert static.wait(timeout=60) == 0
    site.wait_for("worker", " ready.")

    made = _requests(site, keys)
    unknown = _tasks(site, site.env["CELERY_BROKER_URL"], keys)
    timed_out = _timed_out(site, keys["table"])
    site.stop("worker")
    site.stop("web")

    secrets_sent = [
        *(keys[name] for name in ("table", "team", "invitation", "token", "reset")),
        *made,
        unknown,
        timed_out,
    ]
    written = {
        f"{name}.{stream}": site.output(name, stream)
        for name in ("web", "worker", "collectstatic", "seed")
        for stream in ("out", "err")
        if (name, stream) != ("seed", "out")  # the keys the test asked for
    }
    lines = [line for where, text in written.items() for line in _lines(text, where)]
    for where, text in written.items():
        for secret in secrets_sent:
            at = text.find(secret[:8])
            assert at < 0, f"{where}: {text[max(0, at - 200) : at + 60]}"
        assert not RESET_TOKEN.search(text), where

    def said(where: str, logger: str, words: str) -> dict:
        found = [
            line
            for line in lines
            if line["where"].startswith(where)
            and line["logger"] == logger
            and words in line["message"]
        ]
        assert found, (where, logger, words)
        return found[0]

    table = keys["table"][:4]
    # deploy/migrate's dump and migrate's own words, then gunicorn's.
    said("web", "fiftysix.dump", "dump: ")
    said("web", "fiftysix.migrate", "Applying tournament.0001_initial... OK")
    said("web", "gunicorn.error", "Listening at")
    said("web", "fiftysix.request", f"GET /l/{table}…/ 200")
    said("web", "django.security.csrf", "Forbidden")
    said("web", "tournament.ops.mail", "mail not sent: no EMAIL_URL (1 recipient(s)")
    said("web", "gunicorn.error", "WORKER TIMEOUT")
    killed = said("web", "gunicorn.error", f"Error handling request POST /l/{table}…/")
    assert "SystemExit" in killed["exc"]
    # The worker: its start, the tasks (the unknown one's whole message is logged),
    # the mails not sent, and its words on its warm shutdown.
    said("worker", "celery.apps.worker", "ready.")
    said("worker", "celery.worker.consumer.consumer", f"/l/{table}…/")
    said("worker", "tournament.ops.mail", "subject 'Invitation: Log Cup'")
    said("worker", "tournament.ops.mail", "subject 'Your password for 56 tournaments'")
    said("worker", "celery.apps.worker", "Warm shutdown")
    # A command's uncaught exception: one line, its traceback in it, the key cut.
    died = said("seed", "fiftysix.uncaught", "uncaught RuntimeError")
    assert f"/l/{table}…/sheets/" in died["message"]
    assert "Traceback" in died["exc"] and died["level"] == "CRITICAL"
