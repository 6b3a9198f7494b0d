"""No slow or stalled client holds a gunicorn worker (issue 51; docs/deploy.md, "Slow
clients"): each shipped proxy reads the whole request before gunicorn's sync workers
see any of it, and cuts a client that takes too long.

The site runs as deploy/start-web runs it (gunicorn, its 2 sync workers, the
production settings) on an SQLite file of its own, behind each proxy in turn:
Debian's Caddy running deploy/Caddyfile.plain, and Debian's nginx running
deploy/nginx.conf, each file as shipped but for its addresses, TLS and log files
(rewritten below, each rewrite checked to have found its line). Through the proxy, 18
connections send their request slowly: headers a line at a time, bodies a byte at a
time, bodies that stop, a body declared too large, a body of no given size. Meanwhile
the health check (deploy/healthcheck's `GET /api/v1/health/`) is asked every half
second and must answer 200 within 2 seconds, every time; and each slow connection
must have been cut or refused as the proxy's own file promises (its timeouts are read
from the file, not written here). Before the proxies buffered, two such connections
left the health check unanswered.

deploy/Caddyfile (the compose image's newer Caddy, which this machine does not have)
is held to the same settings as deploy/Caddyfile.plain. Caddy and nginx are Debian's,
which `make proxy` installs (`make test` runs it first)."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
HOST = "127.0.0.1"
HEALTH = "/api/v1/health/"
PROBE_EVERY = 0.5  # seconds between two health checks
PROBE_WITHIN = 2.0  # seconds a health check may take
DRIP_EVERY = 1.5  # seconds between two pieces of a slow request
SLACK = 3.0  # seconds past its timeout within which a slow client must be cut
CSRF = "s1owc1ientsTestCsrfSecret0123456"  # a cookie's secret, sent back in the form


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _program(name: str) -> str:
    """Debian's program, also where a user's PATH lacks /usr/sbin (nginx)."""
    path = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"])
    found = shutil.which(name, path=path)
    assert found, f"Debian's {name} is needed: `make proxy` installs it"
    return found


def _wait_listening(port: int, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while True:
        with contextlib.suppress(OSError):
            socket.create_connection((HOST, port), 0.5).close()
            return
        assert process.poll() is None, f"it stopped:\n{_tail(log)}"
        assert time.monotonic() < deadline, f"nothing listens on {port}:\n{_tail(log)}"
        time.sleep(0.1)


def _tail(log: Path, lines: int = 30) -> str:
    if not log.exists():
        return ""
    return "\n".join(log.read_text("utf-8", "replace").splitlines()[-lines:])


def _stop(process: subprocess.Popen) -> None:
    """The process and what it started (its own group)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def _spawn(command: list[str], env: dict, log: Path) -> subprocess.Popen:
    with open(log, "ab") as out:
        return subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _ask(port: int, method: str, path: str, body: bytes = b"", headers=None):
    connection = http.client.HTTPConnection(HOST, port, timeout=PROBE_WITHIN)
    try:
        connection.request(method, path, body, {"Host": HOST, **(headers or {})})
        answer = connection.getresponse()
        return answer, answer.read()
    finally:
        connection.close()


# The site, as deploy/start-web runs it
# ----------------------------------------------------------------------------------


@dataclass
class Site:
    port: int
    log: Path


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[Site]:
    """deploy/start-web's gunicorn (its default 2 sync workers and 60 s timeout) with
    the production settings on a migrated SQLite file of its own; no broker (tasks
    run in the request), no Redis."""
    folder = tmp_path_factory.mktemp("site")
    port = _free_port()
    env = {
        **os.environ,
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]),
        "DJANGO_SETTINGS_MODULE": "tournament.config.settings",
        "DATABASE_URL": f"sqlite:///{folder / 'site.sqlite3'}",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "slow-clients-test-only-" + "k" * 40,
        "DJANGO_ALLOWED_HOSTS": HOST,
        # The proxies run on plain HTTP here: no redirect to HTTPS.
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "CELERY_BROKER_URL": "",
        "CACHE_URL": "",
        "FIFTYSIX_VAR_DIR": str(folder),
        "WEB_BIND": f"{HOST}:{port}",
        "MIGRATE_ON_START": "0",
    }
    for name in ("WEB_CONCURRENCY", "WEB_TIMEOUT"):
        env.pop(name, None)  # deploy/start-web's own defaults
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=300,
    )
    log = folder / "web.log"
    web = _spawn([str(DEPLOY / "start-web")], env, log)
    try:
        _wait_listening(port, web, log)
        # Both workers answer once (the first answer of each reads the migrations
        # from disk), before any probe is timed.
        deadline = time.monotonic() + 60
        answered = 0
        while answered < 4:
            with contextlib.suppress(OSError):
                answered += _ask(port, "GET", HEALTH)[0].status == 200
            assert time.monotonic() < deadline, f"no health:\n{_tail(log)}"
        yield Site(port, log)
    finally:
        _stop(web)


# The proxies, each with its shipped file
# ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Limits:
    """What a proxy's shipped file promises a slow client."""

    header_seconds: float  # the headers, all of them, within this
    body_seconds: float
    # Caddy: the whole request within body_seconds; nginx: at most body_seconds
    # between two reads of the body (a body that keeps coming is read on).
    body_from_start: bool
    body_bytes: int  # a body declared larger is refused at once
    buffer_bytes: int  # how much of a body is read before gunicorn sees any of it
    unsized_refused: bool  # a body of no given size: refused (Caddy), or buffered


@dataclass
class Proxy:
    name: str
    port: int
    limits: Limits
    log: Path


def _once(text: str, old: str, new: str, where: str) -> str:
    """One rewrite of a shipped file, which must find its line exactly once: a
    changed file fails here, saying what to follow, rather than run untested."""
    found = text.count(old)
    assert found == 1, f"{where}: {old!r} found {found} times; follow it here"
    return text.replace(old, new)


def _seconds(value: str) -> float:
    number, unit = re.fullmatch(r"(\d+)(ms|s|m)?", value).groups()
    return int(number) * {"ms": 0.001, "s": 1, "m": 60, None: 1}[unit]


def _bytes(value: str) -> int:
    number, unit = re.fullmatch(r"(\d+)([kKmM]?)", value).groups()
    return int(number) * {"": 1, "k": 1024, "m": 1024 * 1024}[unit.lower()]


def _caddy_config(folder: Path, port: int, upstream: int) -> str:
    """deploy/Caddyfile.plain with no admin endpoint, its access log in `folder`, and
    gunicorn on our port; its imports are deploy/'s files themselves. The site's
    address comes in FIFTYSIX_DOMAIN, as in production (plain HTTP here)."""
    where = "deploy/Caddyfile.plain"
    text = (DEPLOY / "Caddyfile.plain").read_text("utf-8")
    text = _once(text, "\n{\n", "\n{\n\tadmin off\n", where)
    text = _once(
        text,
        "output file /var/log/caddy/fiftysix-access.log {",
        f"output file {folder / 'access.log'} {{",
        where,
    )
    text = _once(
        text,
        "reverse_proxy 127.0.0.1:8000 {",
        f"reverse_proxy {HOST}:{upstream} {{",
        where,
    )
    return re.sub(
        r"^(\s*import )(caddy-[\w.-]+)$",
        lambda m: m[1] + str(DEPLOY / m[2]),
        text,
        flags=re.MULTILINE,
    )


def _walk(node) -> Iterator[dict]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def _caddy_limits(adapted: dict) -> Limits:
    """The limits as Caddy itself reads the file (`caddy adapt`'s JSON)."""
    where = "deploy/Caddyfile.plain"
    servers = list(adapted["apps"]["http"]["servers"].values())
    assert len(servers) == 1, servers
    server = servers[0]
    assert server.get("read_header_timeout"), f"{where} sets no read_header timeout"
    assert server.get("read_timeout"), f"{where} sets no read_body timeout"
    proxies = [n for n in _walk(adapted) if n.get("handler") == "reverse_proxy"]
    assert len(proxies) == 1, proxies
    handler = proxies[0]
    # Caddy 2.6.4 and later: request_buffers; Debian's 2.6.2: buffer_requests, up to
    # max_buffer_size. -1: no limit.
    older = handler.get("max_buffer_size", -1) if handler.get("buffer_requests") else 0
    buffered = handler.get("request_buffers") or older
    assert buffered != 0, f"{where}'s reverse_proxy does not buffer request bodies"
    declared = [
        int(m[1])
        for n in _walk(adapted)
        if isinstance(n.get("expression"), str) and "Content-Length" in n["expression"]
        for m in [re.search(r"\) > (\d+)\)", n["expression"])]
        if m
    ]
    assert len(declared) == 1, f"{where} refuses no body declared too large"
    unsized = any(
        n.get("not") and any("Content-Length" in m.get("header", {}) for m in n["not"])
        for n in _walk(adapted)
    )
    return Limits(
        header_seconds=server["read_header_timeout"] / 1e9,
        body_seconds=server["read_timeout"] / 1e9,
        body_from_start=True,
        body_bytes=declared[0],
        buffer_bytes=buffered if buffered > 0 else declared[0],
        unsized_refused=unsized,
    )


def _nginx_site(folder: Path, port: int, upstream: int) -> str:
    """deploy/nginx.conf on plain HTTP on our port (its redirecting server on
    another), without its certificate, its logs in `folder`, gunicorn on our port."""
    where = "deploy/nginx.conf"
    text = (DEPLOY / "nginx.conf").read_text("utf-8")
    text = _once(text, "listen 443 ssl http2;", f"listen {HOST}:{port};", where)
    text = _once(text, "listen 80;", f"listen {HOST}:{_free_port()};", where)
    text = _once(text, "listen [::]:443 ssl http2;", "", where)
    text = _once(text, "listen [::]:80;", "", where)
    text, certificates = re.subn(r"(?m)^\s*ssl_\w+ .*;$", "", text)
    assert certificates, f"{where}: no ssl_ line; follow it here"
    assert "/var/log/nginx/" in text, f"{where}: no log in /var/log/nginx/"
    text = text.replace("/var/log/nginx/", f"{folder}/")
    return _once(text, "server 127.0.0.1:8000 ", f"server {HOST}:{upstream} ", where)


def _nginx_block(text: str, start: int) -> str:
    depth = 0
    for i in range(text.index("{", start), len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[start : i + 1]
    raise AssertionError("deploy/nginx.conf: a server block does not close")


def _nginx_limits(text: str) -> Limits:
    """The limits of the server that proxies to gunicorn, as deploy/nginx.conf sets
    them: each must be set there, not left to nginx's defaults (60 s each)."""
    where = "deploy/nginx.conf's proxying server"
    blocks = [
        _nginx_block(text, m.start()) for m in re.finditer(r"(?m)^server \{", text)
    ]
    proxying = [b for b in blocks if "proxy_pass" in b]
    assert len(proxying) == 1, f"deploy/nginx.conf: {len(proxying)} proxying servers"

    def directive(name: str) -> str:
        values = re.findall(rf"(?m)^\s*{name}\s+(\S+);", proxying[0])
        assert len(values) == 1, f"{where} sets {name} {len(values)} times, not once"
        return values[0]

    assert directive("proxy_request_buffering") == "on", where
    body_bytes = _bytes(directive("client_max_body_size"))
    return Limits(
        header_seconds=_seconds(directive("client_header_timeout")),
        body_seconds=_seconds(directive("client_body_timeout")),
        body_from_start=False,
        body_bytes=body_bytes,
        buffer_bytes=body_bytes,  # nginx spills a large body to a file, all of it
        unsized_refused=False,
    )


@contextlib.contextmanager
def _caddy(site: Site, folder: Path) -> Iterator[Proxy]:
    caddy = _program("caddy")
    port = _free_port()
    config = folder / "Caddyfile"
    config.write_text(_caddy_config(folder, port, site.port), "utf-8")
    env = {
        "HOME": str(folder),
        "XDG_DATA_HOME": str(folder),
        "XDG_CONFIG_HOME": str(folder),
        "FIFTYSIX_DOMAIN": f"http://{HOST}:{port}",
        "ACME_EMAIL": "tests@example.org",
    }
    adapted = subprocess.run(
        [caddy, "adapt", "--config", str(config), "--adapter", "caddyfile"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert adapted.returncode == 0, f"caddy adapt: {adapted.stderr}"
    limits = _caddy_limits(json.loads(adapted.stdout))
    log = folder / "caddy.log"
    process = _spawn(
        [caddy, "run", "--config", str(config), "--adapter", "caddyfile"], env, log
    )
    try:
        _wait_listening(port, process, log)
        yield Proxy("caddy", port, limits, log)
    finally:
        _stop(process)


@contextlib.contextmanager
def _nginx(site: Site) -> Iterator[Proxy]:
    """nginx in a folder of its own under /tmp, readable by its workers (as root,
    they run as nginx's unprivileged user), its temporary files there too."""
    nginx = _program("nginx")
    folder = Path(tempfile.mkdtemp(prefix="fiftysix-nginx-"))
    folder.chmod(0o755)
    try:
        port = _free_port()
        shipped = (DEPLOY / "nginx.conf").read_text("utf-8")
        (folder / "site.conf").write_text(_nginx_site(folder, port, site.port), "utf-8")
        temporary = "\n".join(
            f"    {kind}_temp_path {folder / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        (folder / "nginx.conf").write_text(
            "daemon off;\nworker_processes 1;\n"
            f"pid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\n"
            "events {}\nhttp {\n    include /etc/nginx/mime.types;\n"
            f"{temporary}\n    include {folder / 'site.conf'};\n}}\n",
            "utf-8",
        )
        log = folder / "nginx.out"
        command = [nginx, "-p", str(folder), "-c", str(folder / "nginx.conf")]
        process = _spawn(command, {}, log)
        try:
            _wait_listening(port, process, log)
            yield Proxy("nginx", port, _nginx_limits(shipped), folder / "error.log")
        finally:
            _stop(process)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=["caddy", "nginx"])
def proxy(request, site, tmp_path) -> Iterator[Proxy]:
    started = _caddy(site, tmp_path) if request.param == "caddy" else _nginx(site)
    with started as running:
        assert running.limits.buffer_bytes >= running.limits.body_bytes
        assert running.limits.body_bytes >= settings.API_UPLOAD_MAX_BYTES
        yield running


# The slow clients
# ----------------------------------------------------------------------------------


class SlowClient(threading.Thread):
    """One connection that sends `head` at once, then a piece of `drip` every
    DRIP_EVERY seconds while they last, then nothing, until `seconds` have passed.
    Records when the proxy ended it (closed it, or answered), after how long, and
    what it answered."""

    def __init__(self, kind: str, port: int, head: bytes, drip, seconds: float):
        super().__init__(daemon=True)
        self.kind, self.port, self.head = kind, port, head
        self.drip, self.seconds = iter(drip), seconds
        self.ended_after: float | None = None  # None: still open at the end
        self.answer = b""

    def run(self) -> None:
        with socket.create_connection((HOST, self.port), 5) as sock:
            started = time.monotonic()
            sock.sendall(self.head)
            due = started + DRIP_EVERY
            while (now := time.monotonic()) < started + self.seconds:
                wait = max(0.0, min(due, started + self.seconds) - now)
                if select.select([sock], [], [], wait)[0]:
                    with contextlib.suppress(OSError):
                        self.answer = sock.recv(65536)
                    self.ended_after = time.monotonic() - started
                    return
                if time.monotonic() >= due:
                    due += DRIP_EVERY
                    piece = next(self.drip, None)
                    if piece is not None:
                        try:
                            sock.sendall(piece)
                        except OSError:
                            self.ended_after = time.monotonic() - started
                            return

    @property
    def status(self) -> int | None:
        found = re.match(rb"HTTP/1\.[01] (\d{3}) ", self.answer)
        return int(found[1]) if found else None


def _spaces():
    while True:
        yield b" "


def _lines():
    n = 0
    while True:
        n += 1
        yield f"X-Slow-{n}: a\r\n".encode()


def _chunks():
    while True:
        yield b"1\r\nx\r\n"


def _post(path: str, **headers: str) -> bytes:
    """A POST's head to `path`, with the CSRF cookie the pages want, so that a page
    would read the body (the CSRF check reads the form) if it ever got it."""
    lines = [f"POST {path} HTTP/1.1", f"Host: {HOST}", f"Cookie: csrftoken={CSRF}"]
    lines += [f"{k.replace('_', '-')}: {v}" for k, v in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def _slow_clients(port: int, seconds: float) -> list[SlowClient]:
    """Headers a line at a time, bodies a byte at a time (more of them than gunicorn
    has workers), bodies that stop after their first byte, a body declared larger
    than any upload, a body of no given size: each what a phone on a poor link or a
    visitor holding workers on purpose sends."""
    token = "/api/v1/auth/token/"  # reads its JSON body, for anyone
    json_head = _post(token, Content_Type="application/json", Content_Length="2000")
    form = "multipart/form-data; boundary=slow"
    clients = [
        SlowClient("headers", port, f"GET {HEALTH} HTTP/1.1\r\n".encode(), _lines(), 0)
        for _ in range(4)
    ]
    clients += [SlowClient("trickled", port, json_head, _spaces(), 0) for _ in range(8)]
    clients += [SlowClient("stalled", port, json_head + b"{", [], 0) for _ in range(2)]
    clients += [
        SlowClient(
            "too large",
            port,
            _post("/i18n/setlang/", Content_Type=form, Content_Length=str(8 << 20)),
            [b"x" * 65536] * 8,
            0,
        )
        for _ in range(2)
    ]
    clients += [
        SlowClient(
            "unsized",
            port,
            _post("/i18n/setlang/", Content_Type=form, Transfer_Encoding="chunked"),
            _chunks(),
            0,
        )
        for _ in range(2)
    ]
    for client in clients:
        client.seconds = seconds
    return clients


def _probe(port: int) -> tuple[int | str, float]:
    """The health check through the proxy: its status (or why none came) and how
    long it took."""
    started = time.monotonic()
    try:
        answer, body = _ask(port, "GET", HEALTH)
        status: int | str = answer.status
        if status == 200 and json.loads(body)["status"] not in ("ok", "degraded"):
            status = f"200 {body[:200]!r}"
    except (OSError, http.client.HTTPException) as error:
        status = repr(error)
    return status, time.monotonic() - started


def test_slow_and_stalled_clients_hold_no_worker(proxy, site):
    limits = proxy.limits
    seconds = max(limits.header_seconds, limits.body_seconds) + SLACK + 1
    clients = _slow_clients(proxy.port, seconds)
    for client in clients:
        client.start()
    started = time.monotonic()
    probes = []
    while time.monotonic() < started + seconds:
        asked = time.monotonic()
        status, took = _probe(proxy.port)
        probes.append((round(asked - started, 1), status, round(took, 2)))
        time.sleep(max(0.0, asked + PROBE_EVERY - time.monotonic()))
    for client in clients:
        client.join(timeout=seconds + 10)

    late = [p for p in probes if p[1] != 200 or p[2] > PROBE_WITHIN]
    logs = f"{proxy.name}:\n{_tail(proxy.log)}\nweb:\n{_tail(site.log)}"
    assert not late, (
        f"{len(late)} of {len(probes)} health checks failed: {late}\n{logs}"
    )
    assert len(probes) >= seconds / (PROBE_WITHIN + PROBE_EVERY)

    def ended(kind: str) -> list[float | None]:
        return [c.ended_after for c in clients if c.kind == kind]

    def statuses(kind: str) -> list[int | None]:
        return [c.status for c in clients if c.kind == kind]

    # Headers that never end: cut by the header timeout, not before.
    for after in ended("headers"):
        assert after is not None, f"{proxy.name} kept slow headers past {seconds} s"
        assert limits.header_seconds - 1 <= after <= limits.header_seconds + SLACK
    # A body that stops: cut by the body timeout.
    for after in ended("stalled"):
        assert after is not None, f"{proxy.name} kept a stalled body past {seconds} s"
        assert after <= limits.body_seconds + SLACK
    # A body that keeps coming a byte at a time: Caddy cuts the whole request at its
    # timeout; nginx reads on, as long as bytes come, and gunicorn never sees it.
    for after in ended("trickled"):
        if limits.body_from_start:
            assert after is not None and after <= limits.body_seconds + SLACK
    # Past the limit: refused at once, before any of it is read.
    assert statuses("too large") == [413, 413]
    assert all(after <= SLACK for after in ended("too large"))
    if limits.unsized_refused:
        assert statuses("unsized") == [411, 411]
        assert all(after <= SLACK for after in ended("unsized"))
    # No slow request reached the site: none was answered by it.
    for client in clients:
        assert b'"code"' not in client.answer or client.kind in ("too large", "unsized")


def _multipart(fields: list[tuple[str, str, bytes]]) -> tuple[bytes, str]:
    boundary = "fiftysix-largest-upload"
    body = b""
    for name, filename, value in fields:
        disposition = f'form-data; name="{name}"'
        if filename:
            disposition += f'; filename="{filename}"'
        body += f"--{boundary}\r\nContent-Disposition: {disposition}\r\n\r\n".encode()
        body += value + b"\r\n"
    return (
        body + f"--{boundary}--\r\n".encode(),
        f"multipart/form-data; boundary={boundary}",
    )


def test_the_largest_upload_still_reaches_the_site_whole(proxy):
    """A body as large as the largest upload (API_UPLOAD_MAX_BYTES) passes the proxy
    and reaches the site whole: the language switcher reads its form, whose last
    field, after a file of 5 MiB, chooses Malayalam."""
    fields = [("csrfmiddlewaretoken", "", CSRF.encode()), ("next", "", b"/")]
    fields += [("workbook", "teams.xlsx", b""), ("language", "", b"ml")]
    bare, _ = _multipart(fields)
    fields[2] = (
        "workbook",
        "teams.xlsx",
        b"x" * (settings.API_UPLOAD_MAX_BYTES - len(bare)),
    )
    body, content_type = _multipart(fields)
    assert len(body) == settings.API_UPLOAD_MAX_BYTES
    connection = http.client.HTTPConnection(HOST, proxy.port, timeout=60)
    try:
        headers = {"Host": HOST, "Content-Type": content_type}
        headers["Cookie"] = f"csrftoken={CSRF}"
        connection.request("POST", "/i18n/setlang/", body, headers)
        answer = connection.getresponse()
        answer.read()
    finally:
        connection.close()
    assert answer.status == 302, (answer.status, _tail(proxy.log))
    assert "django_language=ml" in (answer.getheader("Set-Cookie") or "")


def _servers_block(text: str) -> str:
    found = re.search(r"(?ms)^\tservers \{$.*?^\t\}$", text)
    assert found, "no servers block in the global options"
    return found[0]


def _snippet(text: str, name: str) -> str:
    found = re.search(rf"(?ms)^\({re.escape(name)}\) \{{$.*?^\}}$", text)
    assert found, f"deploy/caddy-proxy has no ({name}) snippet"
    return found[0]


def test_the_compose_caddyfile_holds_slow_clients_as_the_plain_one():
    """deploy/Caddyfile runs in the compose image's Caddy (caddy:2, newer than
    Debian's, which alone runs here): the same timeouts, the same refusals, and the
    same buffer in the newer spelling (deploy/caddy-proxy)."""
    compose = (DEPLOY / "Caddyfile").read_text("utf-8")
    plain = (DEPLOY / "Caddyfile.plain").read_text("utf-8")
    snippets = (DEPLOY / "caddy-proxy").read_text("utf-8")
    assert _servers_block(compose) == _servers_block(plain)
    assert re.search(r"(?m)^\t\timport fiftysix-buffers$", compose)
    assert re.search(r"(?m)^\t\timport fiftysix-buffers-debian$", plain)
    for text in (compose, plain):
        assert re.search(r"(?m)^\timport fiftysix-bodies$", text)
    newer = re.search(
        r"request_buffers (\d+)MiB", _snippet(snippets, "fiftysix-buffers")
    )
    debian = _snippet(snippets, "fiftysix-buffers-debian")
    older = re.search(r"max_buffer_size (\d+)", debian)
    assert newer and older and "buffer_requests" in debian
    assert int(newer[1]) << 20 == int(older[1])
