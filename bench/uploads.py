"""Hostile uploads: how fast a decompression bomb is refused, and whether scorers
notice while an organizer sends them.

gunicorn (sync workers, the production settings) on PostgreSQL, over HTTP:

- refusing a bomb at the team-list import (`POST …/teams/import/`, one worker): a
  129 KB file whose shared strings unpack to 122 MB, and one at the 5 MB upload limit
  that unpacks to 5 GB (tests/hostile_xlsx.py builds both in memory), each sent
  --repeat times;
  baseline: the same file sent to a bare DRF endpoint (`bench/bare/`: the multipart
  body received and parsed, nothing done with it); and how far the worker's peak
  memory grew refusing them, from after uploads of the same size to the bare endpoint;
- deal writes (`POST …/deals/`) by 2 scorers, in three rounds of: alone; while an
  organizer sends the 5 MB file back to back to the bare endpoint (what any upload of
  that size costs the machine: the floor); while the organizer sends it to the import,
  where it is a bomb. The p50 latency of each.

Usage: python -m bench uploads [--repeat 5] [--deals 180]
Needs PostgreSQL.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import threading
import time
import uuid
from pathlib import Path

from bench.core import (
    BenchFailed,
    Figure,
    Session,
    child_env,
    gunicorn,
    gunicorn_workers,
    run_module,
)
from bench.deal_api import deal_body

TINY = ["--repeat", "1", "--deals", "24"]
SLUG = "bench-open"


def _setup(matches: int) -> dict:
    """deal_api's tournament and scorer, and its organizer's token (child process)."""
    from bench.deal_api import _setup as deal_setup

    plan = deal_setup(matches)
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from tournament.models import Membership, Tournament

    organizer = get_user_model().objects.get(username="bench-organizer")
    Membership.objects.create(
        tournament=Tournament.objects.get(slug=SLUG), user=organizer, role="organizer"
    )
    return {**plan, "organizer": Token.objects.create(user=organizer).key}


def _multipart(content: bytes, name: str) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="{name}"\r\nContent-Type: application/vnd.openxmlformats-'
            "officedocument.spreadsheetml.sheet\r\n\r\n"
        ).encode()
        + content
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


def _send(port: int, path: str, token: str, body: bytes, kind: str):
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.request(
            "POST",
            path,
            body,
            {"Content-Type": kind, "Authorization": f"Token {token}"},
        )
        answer = conn.getresponse()
        data = answer.read()
    finally:
        conn.close()
    return answer.status, data, time.perf_counter() - started


def _refusals(port: int, plan: dict, content: bytes, repeat: int) -> dict:
    body, kind = _multipart(content, "teams.xlsx")
    imports = f"/api/v1/tournaments/{SLUG}/teams/import/"
    refused, bare = [], []
    for _ in range(repeat + 1):  # the first of each warms the worker
        status, data, took = _send(port, imports, plan["organizer"], body, kind)
        if status != 400 or b"unpacks to more than" not in data:
            raise BenchFailed(f"a bomb was answered {status}: {data[:200]!r}")
        refused.append(took)
        status, data, took = _send(port, "/bench/bare/", plan["organizer"], body, kind)
        if status != 201:
            raise BenchFailed(f"the bare upload was answered {status}: {data[:200]!r}")
        bare.append(took)
    return {
        "refused_ms": statistics.median(refused[1:]) * 1000,
        "bare_ms": statistics.median(bare[1:]) * 1000,
    }


def _deals(port: int, plan: dict, first: int, count: int, versions: dict) -> list:
    """`count` deals by each of 2 scorers, from deal `first` on; their latencies."""
    latencies: list[float] = []
    errors: list[str] = []

    def scorer(s: int) -> None:
        for i in range(first, first + count):
            match = plan["ids"][s * 40 + i // 18]
            body = json.dumps(deal_body(i, versions.get(match, 1))).encode()
            status, data, took = _send(
                port,
                f"/api/v1/matches/{match}/deals/",
                plan["token"],
                body,
                "application/json",
            )
            if status != 201:
                errors.append(f"{status} {data[:200]!r}")
                return
            versions[match] = json.loads(data)["version"]
            latencies.append(took)

    threads = [threading.Thread(target=scorer, args=(s,)) for s in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise BenchFailed(f"a deal failed: {errors[0]}")
    return latencies


def run(session: Session, argv: list[str]) -> list[Figure]:
    from tests import hostile_xlsx

    parser = argparse.ArgumentParser(prog="python -m bench uploads")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--deals", type=int, default=180)
    args = parser.parse_args(argv)
    bombs = {
        "the 129 KB bomb (122 MB of strings)": hostile_xlsx.strings_bomb(),
        "the bomb at the 5 MB limit (5 GB)": hostile_xlsx.limit_bomb(),
    }
    print("bench: hostile uploads, gunicorn with 3 workers on PostgreSQL, over HTTP")
    figures = []
    with session.database("postgresql", "uploads") as db:
        matches = 2 * 40  # 40 sheets a scorer: room for 720 deals each
        plan = run_module("bench.uploads", db.url, "--child", str(matches))
        quiet = child_env(db.url, DJANGO_LOG_LEVEL="ERROR")  # the 400s are expected
        # One worker, so that every request lands on the one whose memory is read.
        with gunicorn(quiet, 1) as port:
            (worker,) = gunicorn_workers(port, count=1)
            for content in bombs.values():  # warm: any upload of that size
                body, kind = _multipart(content, "teams.xlsx")
                _send(port, "/bench/bare/", plan["organizer"], body, kind)
            before = _peak_mb(worker)
            print(f"    {'':<40} {'refused':>10} {'bare upload':>12} {'ratio':>7}")
            for name, content in bombs.items():
                r = _refusals(port, plan, content, args.repeat)
                print(
                    f"    {name:<40} {r['refused_ms']:7.1f} ms {r['bare_ms']:9.1f} ms"
                    f" {r['refused_ms'] / r['bare_ms']:6.2f}x"
                )
                figures.append(
                    Figure(
                        "upload.bomb",
                        f"refusing {name}",
                        r["refused_ms"],
                        "ms",
                        "the same file, bare",
                        r["bare_ms"],
                        "PostgreSQL",
                    )
                )
            growth = _peak_mb(worker) - before
        print(
            f"  the worker's peak memory grew by {growth:.1f} MB refusing them "
            f"(from {before:.0f} MB, after uploads of the same size to a bare "
            "endpoint)"
        )
        figures.append(
            Figure(
                "upload.memory",
                "a worker's growth refusing the bombs",
                growth,
                "MB",
                "the worker before",
                before,
                "PostgreSQL",
            )
        )
        with gunicorn(quiet, 3) as port:
            figures.append(_latency(port, plan, bombs, args.deals))
    return figures


def _latency(port: int, plan: dict, bombs: dict, deals: int) -> Figure:
    """Deal writes alone, beside an organizer sending the 5 MB file to the bare
    endpoint back to back (the cost of any upload that size: the floor), and beside
    the same organizer sending it to the import as a bomb; three rounds of the three."""
    versions: dict = {}
    _deals(port, plan, 0, 6, versions)  # warm
    body, kind = _multipart(list(bombs.values())[-1], "teams.xlsx")
    targets = {
        "alone": None,
        "bare": "/bench/bare/",
        "bomb": f"/api/v1/tournaments/{SLUG}/teams/import/",
    }
    latencies: dict[str, list[float]] = {name: [] for name in targets}
    sent = dict.fromkeys(targets, 0)
    each = max(2, deals // 9)
    first = 6
    for _ in range(3):
        for name, path in targets.items():
            stop = threading.Event()

            def organizer(path=path, name=name, stop=stop) -> None:
                while path and not stop.is_set():
                    _send(port, path, plan["organizer"], body, kind)
                    sent[name] += 1

            uploader = threading.Thread(target=organizer)
            uploader.start()
            try:
                latencies[name] += _deals(port, plan, first, each, versions)
            finally:
                stop.set()
                uploader.join()
            first += each
    p50 = {name: statistics.median(v) * 1000 for name, v in latencies.items()}
    print(
        f"  deal writes, p50 of {len(latencies['alone'])} each: {p50['alone']:.1f} ms "
        f"alone; {p50['bare']:.1f} ms beside {sent['bare']} uploads of the 5 MB file "
        f"to a bare endpoint; {p50['bomb']:.1f} ms beside {sent['bomb']} of it to "
        f"the import ({p50['bomb'] / p50['bare']:.2f}x the bare uploads, "
        f"{p50['bomb'] / p50['alone']:.2f}x alone)"
    )
    return Figure(
        "upload.deals",
        "a deal while an organizer sends bombs (p50)",
        p50["bomb"],
        "ms",
        "beside bare uploads",
        p50["bare"],
        "PostgreSQL",
    )


def _peak_mb(pid: int) -> float:
    """The process's peak resident memory (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise BenchFailed(f"no VmHWM for process {pid}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        print(json.dumps(_setup(int(sys.argv[2]))))
