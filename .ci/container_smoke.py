"""The smoke test of the container pass (.ci/container; docs/deploy.md, "The CI pass"),
run by the host's venv against a web container started from the image, with a worker
container beside it; not a pytest module.

Through the web container's HTTP only: its health answers 200; an organizer signs in
for a token; a tournament is created, eight teams registered in two sections, the
league drawn and round 1 released, a deal recorded; the workbook is requested, built by
the worker container (the image runs with a broker, never eagerly) while this polls,
then downloaded and opened. Then, through each TLS proxy given with --proxy (nginx and
Caddy with the repository's log formats, in front of the same container), requests
that carry the real link key, the token and invented keys everywhere a key can be:
their access logs must have a line for each and no key in any.

Prints one line per step with its time, and the export job's id last
(`export-job: <id>`), which .ci/container looks for in the worker's log.
"""

from __future__ import annotations

import argparse
import http.client
import io
import json
import ssl
import sys
import time
import zipfile
from pathlib import Path
from urllib.parse import urlsplit

import openpyxl

STARTED = time.monotonic()


def say(text: str) -> None:
    print(f"smoke: {text} ({time.monotonic() - STARTED:.1f}s)", flush=True)


class Site:
    """HTTP to one base address, as the proxy would send it: the site's host name and
    `X-Forwarded-Proto: https`."""

    def __init__(self, base: str, host: str, token: str = "") -> None:
        self.base, self.host, self.token = urlsplit(base), host, token

    def _connection(self) -> http.client.HTTPConnection:
        if self.base.scheme == "https":
            return http.client.HTTPSConnection(
                self.base.netloc,
                timeout=30,
                context=ssl._create_unverified_context(),  # noqa: S323 (its own test certificate)
            )
        return http.client.HTTPConnection(self.base.netloc, timeout=30)

    def call(
        self,
        method: str,
        path: str,
        body: object = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        sent = {"Host": self.host, "X-Forwarded-Proto": "https"}
        if self.token:
            sent["Authorization"] = f"Token {self.token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        sent.update(headers or {})
        connection = self._connection()
        try:
            connection.request(method, path, body=data, headers=sent)
            answer = connection.getresponse()
            return answer.status, dict(answer.getheaders()), answer.read()
        finally:
            connection.close()

    def json(self, method: str, path: str, body: object = None, expect=(200,)):
        status, _, content = self.call(method, path, body)
        if status not in expect:
            raise SystemExit(f"{method} {path}: {status} {content[:600]!r}")
        return json.loads(content) if content else None


def health(site: Site, timeout: float) -> dict:
    """Wait for 200 from the health endpoint, and for its worker check when the
    answer has one (the worker marks itself seen once it is ready)."""
    deadline = time.monotonic() + timeout
    body: dict = {}
    while time.monotonic() < deadline:
        try:
            status, _, content = site.call("GET", "/api/v1/health/")
        except OSError:
            status, content = 0, b""
        if status == 200:
            body = json.loads(content)
            worker = body.get("checks", {}).get("worker", {"ok": True})
            if worker.get("ok"):
                return body
        time.sleep(1)
    raise SystemExit(f"health: no healthy answer within {timeout:.0f}s: {body}")


def teams_register(site: Site, slug: str) -> None:
    """A Texas section and eight teams of three, every other one from Houston (the
    rest from Kochi: International): as every release since 0.3.0 takes them (the
    upgrade test's client, .ci/upgrade_client.py, registers them so too)."""
    site.json(
        "POST",
        f"/api/v1/tournaments/{slug}/sections/",
        {"name": "Texas", "states": ["TX"], "cities": []},
        expect=(201,),
    )
    for n in range(8):
        where = ("Houston", "TX", "USA") if n % 2 else ("Kochi", "", "India")
        captain = dict(zip(("city", "state", "country"), where, strict=True))
        site.json(
            "POST",
            f"/api/v1/tournaments/{slug}/teams/",
            {
                "name": f"Team {n}",
                "captain": {"name": f"Captain {n}", **captain},
                "players": [f"Player {n}{p}" for p in "ab"],
            },
            expect=(201,),
        )


def play(site: Site) -> tuple[str, int]:
    """A tournament drawn, round 1 released and a deal recorded: (slug, a match)."""
    slug = "ci-container-cup"
    site.json(
        "POST",
        "/api/v1/tournaments/",
        {
            "name": "CI Container Cup",
            "slug": slug,
            "league_rounds": 2,
            "league_deals": 2,
            "published": True,
        },
        expect=(201,),
    )
    teams_register(site, slug)
    say("tournament created, 8 teams registered in 2 sections")
    site.json("POST", f"/api/v1/tournaments/{slug}/draw/", {"seed": 56}, expect=(201,))
    site.json(
        "POST", f"/api/v1/tournaments/{slug}/rounds/1/release/", {}, expect=(200, 201)
    )
    rounds = site.json("GET", f"/api/v1/tournaments/{slug}/rounds/")
    rounds = rounds.get("results", rounds) if isinstance(rounds, dict) else rounds
    match = rounds[0]["matches"][0]["id"]
    say(f"league drawn, round 1 released ({len(rounds[0]['matches'])} tables)")
    version = site.json("GET", f"/api/v1/matches/{match}/")["version"]
    deal = site.json(
        "POST",
        f"/api/v1/matches/{match}/deals/",
        {
            "number": 1,
            "declarer": "A",
            "value": 28,
            "trump": "spades",
            "level": "none",
            "taken": 30,
            "version": version,
        },
        expect=(201,),
    )
    say(f"deal 1 recorded at match {match}: award {deal.get('award')}")
    return slug, match


def workbook(site: Site, slug: str) -> int:
    """The workbook, built by the worker: its job's id."""
    job = site.json("POST", f"/api/v1/tournaments/{slug}/exports/", expect=(202,))
    if job["status"] == "done":
        raise SystemExit(
            "the workbook was built inside the request: the image ran Celery eagerly"
        )
    say(f"workbook requested: job {job['id']} {job['status']}")
    deadline = time.monotonic() + 120
    while job["status"] in ("queued", "running"):
        if time.monotonic() > deadline:
            raise SystemExit(f"the worker did not build the workbook: {job}")
        time.sleep(0.5)
        job = site.json("GET", f"/api/v1/exports/{job['id']}/")
    if job["status"] != "done":
        raise SystemExit(f"the workbook failed: {job}")
    status, _, content = site.call("GET", job["file"])
    if status != 200:
        raise SystemExit(f"GET {job['file']}: {status}")
    if not zipfile.is_zipfile(io.BytesIO(content)):
        raise SystemExit("the workbook is not a zip file")
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        if "xl/workbook.xml" not in archive.namelist():
            raise SystemExit(f"no xl/workbook.xml in {archive.namelist()[:10]}")
    sheets = openpyxl.load_workbook(io.BytesIO(content), read_only=True).sheetnames
    for name in ("Teams", "Draw", "Standings"):
        if name not in sheets:
            raise SystemExit(f"the workbook lacks its {name} sheet: {sheets}")
    say(f"workbook built by the worker, {len(content)} bytes, sheets {sheets}")
    return job["id"]


# Keys as a log could meet them; each must be cut to its first 4 characters.
INVENTED = {
    "invitation": "INVITEkey0123456789abcdefghijklmnopqrstuv",
    "next": "NEXTkey0123456789abcdefghijklmnopqrstuvwx",
    "reset": "c5q1f1-0123456789abcdef0123456789abcdef",
    "query": "QUERYtoken0123456789abcdefghij",
    "cookie": "COOKIEsession0123456789abcdefgh",
}


def proxies(site: Site, proxy_args: list[str], slug: str, match: int) -> None:
    """Requests through each proxy that carry keys; its log must keep none."""
    links = site.json("GET", f"/api/v1/tournaments/{slug}/links/")
    key = links["tables"][0]["key"]
    secrets = [key, site.token, *INVENTED.values()]
    paths = [
        f"/l/{key}/",
        f"/l/{key}/qr.svg",
        f"/l/{key}/sheets/{match}/",
        f"/invitations/{INVENTED['invitation']}/",
        f"/accounts/login/?next=/l/{INVENTED['next']}/",
        f"/accounts/password/reset/MQ/{INVENTED['reset']}/",
        f"/api/v1/health/?token={INVENTED['query']}",
        f"/api/v1/matches/{match}/",
    ]
    for spec in proxy_args:
        name, url, log = spec.split("=", 2)
        through = Site(url, site.host, site.token)
        for path in paths:
            status, _, _ = through.call(
                "GET",
                path,
                headers={
                    "Referer": f"https://{site.host}/l/{key}/",
                    "Cookie": f"sessionid={INVENTED['cookie']}",
                },
            )
            if status >= 500:
                raise SystemExit(f"{name}: GET {path} answered {status}")
        # As a table's script sends its key.
        through.token = ""
        through.call(
            "GET", f"/api/v1/matches/{match}/", headers={"Authorization": f"Link {key}"}
        )
        time.sleep(1)  # the proxies write their lines after answering
        text = Path(log).read_text(encoding="utf-8", errors="replace")
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) < len(paths) + 1:
            raise SystemExit(f"{name}: {len(lines)} lines in {log}, expected more")
        for secret in secrets:
            for part in {secret, secret[4:]}:
                if part in text:
                    raise SystemExit(f"{name}: its log {log} holds a key: {part[:8]}…")
        cut = key[:4] + "…"
        if cut not in text and cut.encode("unicode_escape").decode() not in text:
            raise SystemExit(f"{name}: the link's cut form {cut} is not in {log}")
        sample = next((line for line in lines if "/sheets/" in line), lines[0])
        say(f"{name}: {len(lines)} access-log lines, no key; one: {sample[:700]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--web", required=True, help="http://127.0.0.1:PORT")
    parser.add_argument("--host", required=True, help="the site's host name")
    parser.add_argument("--username", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--proxy", action="append", default=[], help="NAME=URL=LOG")
    args = parser.parse_args()

    site = Site(args.web, args.host)
    body = health(site, timeout=180)
    say(f"health 200: {json.dumps(body)[:300]}")
    token = site.json(
        "POST",
        "/api/v1/auth/token/",
        {"username": args.username, "password": args.password},
    )["token"]
    site.token = token
    say("signed in with a token")
    slug, match = play(site)
    job = workbook(site, slug)
    proxies(site, args.proxy, slug, match)
    print(f"export-job: {job}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
