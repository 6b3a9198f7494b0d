"""What Caddy answers when no web instance can take a request (deploy/caddy-proxy,
imported by both Caddyfiles and by `python -m bench faults`): a JSON 503 with
Retry-After under /api/, so that a client sends its write again with its key, and a
short page in the visitor's language elsewhere, never a bare 502 (docs/reliability.md).
Caddy is Debian's, which `make test` installs when it is missing."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def proxy(tmp_path_factory):
    """Caddy with deploy/caddy-proxy in front of two instances that are not there
    (each request waits the 5 s a request may wait for an instance, then is
    answered)."""
    tmp_path = tmp_path_factory.mktemp("caddy")
    caddy = shutil.which("caddy")
    assert caddy, "Debian's caddy is needed: `make proxy` installs it"
    port = _free_port()
    dead = f"127.0.0.1:{_free_port()} 127.0.0.1:{_free_port()}"
    config = tmp_path / "Caddyfile"
    config.write_text(
        "{\n\tadmin off\n\tauto_https off\n}\n"
        f"import {ROOT / 'deploy' / 'caddy-proxy'}\n"
        f"http://127.0.0.1:{port} {{\n"
        f"\treverse_proxy {dead} {{\n\t\timport fiftysix-upstreams\n\t}}\n"
        "\timport fiftysix-unavailable\n}\n",
        encoding="utf-8",
    )
    process = subprocess.Popen(
        [caddy, "run", "--config", str(config), "--adapter", "caddyfile"],
        env={"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            break
        except OSError:
            assert process.poll() is None, "caddy stopped: deploy/caddy-proxy is wrong"
            assert time.monotonic() < deadline, "caddy did not listen"
            time.sleep(0.1)
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=20)


def _ask(url: str, method: str = "GET", headers: dict | None = None):
    request = urllib.request.Request(url, method=method, headers=headers or {})  # noqa: S310
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, data=b"{}" if method == "POST" else None)  # noqa: S310
    return refused.value


def test_the_api_gets_a_json_503_with_retry_after(proxy):
    headers = {"Content-Type": "application/json", "Idempotency-Key": "k-1"}
    answer = _ask(f"{proxy}/api/v1/matches/1/deals/", "POST", headers)
    assert answer.code == 503
    assert answer.headers["Content-Type"] == "application/json"
    assert answer.headers["Retry-After"] == "2"
    body = json.loads(answer.read())
    assert body["code"] == "server_unavailable"
    assert "Idempotency-Key" in body["detail"]


@pytest.mark.parametrize(
    ("headers", "language", "words"),
    [
        ({}, "en", "not answering"),
        ({"Accept-Language": "ml,en;q=0.5"}, "ml", "മറുപടി"),
        ({"Cookie": "django_language=ml"}, "ml", "മറുപടി"),
        # The switcher's choice wins over the browser's.
        ({"Cookie": "django_language=en", "Accept-Language": "ml"}, "en", "Try again"),
    ],
)
def test_a_page_gets_a_short_page_in_the_visitors_language(
    proxy, headers, language, words
):
    answer = _ask(f"{proxy}/t/hall-cup/", headers=headers)
    assert answer.code == 503
    assert answer.headers["Retry-After"] == "2"
    page = answer.read().decode("utf-8")
    assert f'<html lang="{language}">' in page
    assert words in page
