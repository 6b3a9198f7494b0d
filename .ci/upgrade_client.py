"""The client of the upgrade test (.ci/upgrade; docs/deploy.md, "The CI pass"): a
scorer's and an organizer's API calls through the site's proxy, before, during and
after `deploy/upgrade`; not a pytest module. Only calls every release since 0.3.0
answers alike.

  play     on the previous release: a tournament of 8 teams in 2 sections, drawn over
           4 rounds of 6 deals; round 1 played and every sheet confirmed
  write    rounds 2 to 4 released and played a deal a second (each sheet confirmed
           once full) until the stop file appears: every answer is logged, a 503
           with Retry-After is waited out and sent again with the same
           Idempotency-Key, anything else is a failure
  served   the standings, statistics and people (with their ratings) as the API
           serves them now, into a file
  verify   every deal written is stored once, exactly as written, every full sheet
           confirmed; no answer was other than a success or a 503 with Retry-After;
           and, given the file `served` wrote before the fresh computation and the
           one after it, that the API served exactly what a fresh computation gives

Prints a line per step; exits non-zero with the problems found.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from collections import Counter
from pathlib import Path

import container_smoke as smoke  # the same directory: .ci/

STARTED = time.monotonic()
SLUG = "ci-upgrade-cup"
DEALS = 6
ROUNDS = 4
OK = {200, 201, 202, 204}


def say(text: str) -> None:
    print(f"upgrade-client: {text} ({time.monotonic() - STARTED:.1f}s)", flush=True)


class Site(smoke.Site):
    """The smoke test's HTTP to the proxy (the site's host name, a token), with a
    log line for every answer, or for none: the connection failed."""

    def __init__(self, base: str, host: str, token: str = "", log: Path | None = None):
        super().__init__(base, host, token)
        self.log = log.open("a") if log else None

    def call(self, method: str, path: str, body=None, headers=None):
        try:
            got = super().call(method, path, body, headers)
        except OSError as error:
            self._logged(method, path, None, {}, repr(error).encode())
            raise
        self._logged(method, path, *got)
        return got

    def _logged(self, method, path, status, headers, content) -> None:
        if self.log:
            line = {
                "t": round(time.monotonic() - STARTED, 3),
                "method": method,
                "path": path,
                "status": status,
                "retry_after": headers.get("Retry-After"),
                "body": content[:200].decode(errors="replace")
                if status not in OK
                else "",
            }
            self.log.write(json.dumps(line) + "\n")
            self.log.flush()

    def patient(self, method: str, path: str, body=None, expect=(200, 201)):
        """A call a phone would make: a 503 with Retry-After is waited out and sent
        again, the same Idempotency-Key for a write, for up to 10 minutes."""
        headers = {"Idempotency-Key": str(uuid.uuid4())} if method != "GET" else {}
        deadline = time.monotonic() + 600
        while True:
            status, got, content = self.call(method, path, body, headers)
            if status == 503 and got.get("Retry-After", "").isdigit():
                if time.monotonic() > deadline:
                    raise SystemExit(f"{method} {path}: 503 for 10 minutes")
                time.sleep(max(int(got["Retry-After"]), 1))
                continue
            if status not in expect:
                raise SystemExit(f"{method} {path}: {status} {content[:600]!r}")
            return json.loads(content) if content else None


def deal_body(match: int, number: int) -> dict:
    """A deal of its own for each match and number: made or lost, either side."""
    seed = match * 31 + number * 7
    value = 28 + 2 * (seed % 5)
    return {
        "number": number,
        "declarer": "AB"[seed % 2],
        "value": value,
        "trump": ("spades", "hearts", "diamonds", "clubs")[seed % 4],
        "level": "none",
        "taken": min(value + 2, 56) if seed % 3 else value - 4,
    }


def rounds_of(site: Site) -> list[dict]:
    rounds = site.patient("GET", f"/api/v1/tournaments/{SLUG}/rounds/")
    return rounds.get("results", rounds) if isinstance(rounds, dict) else rounds


def play_match(site: Site, match: int, written: list, pause: float = 0.0) -> None:
    """Every deal of a match, then the organizer's confirmation."""
    for number in range(1, DEALS + 1):
        version = site.patient("GET", f"/api/v1/matches/{match}/")["version"]
        body = deal_body(match, number)
        site.patient(
            "POST", f"/api/v1/matches/{match}/deals/", {**body, "version": version}
        )
        written.append({"match": match, **body})
        time.sleep(pause)
    version = site.patient("GET", f"/api/v1/matches/{match}/")["version"]
    site.patient("POST", f"/api/v1/matches/{match}/confirm/", {"version": version})


def play(args) -> int:
    site = Site(args.web, args.host)
    token = site.json(
        "POST",
        "/api/v1/auth/token/",
        {"username": args.username, "password": args.password},
    )["token"]
    site.token = token
    site.json(
        "POST",
        "/api/v1/tournaments/",
        {
            "name": "CI Upgrade Cup",
            "slug": SLUG,
            "league_rounds": ROUNDS,
            "league_deals": DEALS,
            "published": True,
        },
        expect=(201,),
    )
    smoke.teams_register(site, SLUG)
    site.json("POST", f"/api/v1/tournaments/{SLUG}/draw/", {"seed": 56}, expect=(201,))
    site.json(
        "POST", f"/api/v1/tournaments/{SLUG}/rounds/1/release/", {}, expect=(200, 201)
    )
    written: list = []
    first = rounds_of(site)[0]
    for match in first["matches"]:
        play_match(site, match["id"], written)
    Path(args.state).write_text(json.dumps({"token": token, "written": written}))
    say(f"round 1 played on the previous release: {len(written)} deals, confirmed")
    return 0


def write(args) -> int:
    state = json.loads(Path(args.state).read_text())
    site = Site(args.web, args.host, state["token"], Path(args.log))
    written = state["written"]
    stop = Path(args.stop)
    try:
        for number in range(2, ROUNDS + 1):
            site.patient(
                "POST",
                f"/api/v1/tournaments/{SLUG}/rounds/{number}/release/",
                {},
                expect=(200, 201),
            )
            for match in rounds_of(site)[number - 1]["matches"]:
                play_match(site, match["id"], written, pause=args.pause)
                state["written"] = written
                Path(args.state).write_text(json.dumps(state))
            say(f"round {number} played: {len(written)} deals in all")
    finally:
        state["written"] = written
        Path(args.state).write_text(json.dumps(state))
    while not stop.exists():  # every deal written: wait for the upgrade to end
        time.sleep(0.5)
    return 0


def served(args) -> int:
    state = json.loads(Path(args.state).read_text())
    site = Site(args.web, args.host, state["token"])
    found = {
        name: site.json("GET", path)
        for name, path in (
            ("standings", f"/api/v1/tournaments/{SLUG}/standings/"),
            ("statistics", f"/api/v1/tournaments/{SLUG}/statistics/"),
            ("people", "/api/v1/people/?page_size=200"),
        )
    }
    Path(args.out).write_text(json.dumps(found, sort_keys=True))
    say(f"the API's standings, statistics and people into {args.out}")
    return 0


def verify(args) -> int:
    state = json.loads(Path(args.state).read_text())
    site = Site(args.web, args.host, state["token"])
    problems = []
    by_match: dict[int, list] = {}
    for deal in state["written"]:
        by_match.setdefault(deal["match"], []).append(
            {k: v for k, v in deal.items() if k != "match"}
        )
    keys = ("number", "declarer", "value", "trump", "level", "taken")
    for match, wanted in by_match.items():
        sheet = site.json("GET", f"/api/v1/matches/{match}/")
        stored = [{k: d[k] for k in keys} for d in sheet["deals"]]
        if stored != sorted(wanted, key=lambda d: d["number"]):
            problems.append(
                f"match {match}: {len(stored)} deals stored, {len(wanted)} written"
            )
        if len(wanted) == DEALS and sheet["status"] != "confirmed":
            problems.append(f"match {match}: {sheet['status']}, not confirmed")
    answers = Counter()
    refused = []
    for line in Path(args.log).read_text().splitlines():
        answer = json.loads(line)
        status = answer["status"]
        if status in OK:
            answers["success"] += 1
        elif status == 503 and (answer["retry_after"] or "").isdigit():
            answers["503 with Retry-After"] += 1
        else:
            refused.append(answer)
    problems += [f"an answer other than success or 503: {a}" for a in refused[:10]]
    if len(by_match) < 4 * ROUNDS:
        problems.append(f"deals written at {len(by_match)} tables, not {4 * ROUNDS}")
    if args.before and args.after:
        before = json.loads(Path(args.before).read_text())
        after = json.loads(Path(args.after).read_text())
        for name in before:
            if before[name] != after[name]:
                problems.append(f"the API's {name} differ from a fresh computation")
    say(
        f"{len(state['written'])} deals at {len(by_match)} tables stored once each; "
        f"answers: {dict(answers)}"
    )
    for problem in problems:
        print(f"upgrade-client: PROBLEM: {problem}", file=sys.stderr)
    return 1 if problems else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("step", choices=["play", "write", "served", "verify"])
    parser.add_argument("--web", required=True)
    parser.add_argument("--host", required=True)
    parser.add_argument("--state", required=True)
    parser.add_argument("--username")
    parser.add_argument("--password")
    parser.add_argument("--log")
    parser.add_argument("--stop")
    parser.add_argument("--pause", type=float, default=1.0)
    parser.add_argument("--out")
    parser.add_argument("--before")
    parser.add_argument("--after")
    args = parser.parse_args()
    return {"play": play, "write": write, "served": served, "verify": verify}[
        args.step
    ](args)


if __name__ == "__main__":
    sys.exit(main())
