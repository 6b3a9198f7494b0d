"""A day's reads beside its writes (issue 43): what 1,000 spectators cost a round.

The production settings on a stack of its own (bench/faults.py's: PostgreSQL by
initdb in a temporary folder, Redis, one gunicorn instance of 2 workers; no proxy,
no worker), serving a 500-team league drawn and released. Two rounds are played the
same way, each by 250 tables entering their 18 deals at the round's pace (compressed
in time), every third by its table link as the score page's queue sends, the others
by token (bench/faults.py: _table):

1. round 1 with nobody watching;
2. round 2 while 1,000 spectators poll the standings, half the page (its htmx poll,
   with the table's ETag) and half the API (with its ETag), each every 20 s; 100
   readers open the statistics API, each every 20 s; and 4 venue screens turn to
   their next view every 15 s; all compressed in time by `--compress`.

For each round it measures the deal writes' p50 and p99 and the whole server's CPU
time (PostgreSQL, Redis and gunicorn with every process they started, read from
/proc), and after both it checks every sheet against the rules engine. The figures
of docs/performance.md's `day.*` goals: the write p99 of round 2 against round 1's,
the server's CPU of round 2 against round 1's, and the answers other than the API
promises plus the sheets not as entered (0).

Usage: python -m bench day [--teams 500] [--tables 250] [--spectators 1000]
                           [--statistics 100] [--screens 4] [--round 150]
                           [--compress 4] [--web-workers 2]
Needs PostgreSQL's server programs (initdb, pg_ctl) and redis-server.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import sys
import threading
import time
from pathlib import Path

from bench.core import BenchFailed, Figure, Session, run_module
from bench.faults import Record, Stack, _check, _quantile, _table, league_plans

TINY = [
    "--teams", "24", "--tables", "6", "--spectators", "20", "--statistics", "4",
    "--screens", "1", "--round", "6",
]  # fmt: skip
SLUG = "day-open"
POLL_SECONDS = 20.0  # a spectator's page polls the standings this often (settings)
SCREEN_SECONDS = 15.0  # a venue screen's turn (settings.SCREEN_SECONDS)
READER_THREADS = 48  # the spectators' client threads


def _setup(teams: int, tables: int) -> dict:
    """The league drawn and released; for rounds 1 and 2, each table's match with
    its link or a scorer's token."""
    return league_plans(teams, tables, slug=SLUG, name="day", rounds=(1, 2))


# The server's CPU
# ----------------------------------------------------------------------------------


def _stat(pid: int) -> tuple[int, list[int]] | None:
    """(parent, [utime, stime, cutime, cstime]) of a process, in clock ticks."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), [int(f) for f in fields[11:15]]


def server_cpu(roots: list[int]) -> float:
    """CPU seconds the processes `roots` and all they started have used: each live
    one's own time, and the time of those that ended, which their parent counts."""
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            found = _stat(int(entry))
            if found is not None:
                stats[int(entry)] = found
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in stats.items():
        children.setdefault(parent, []).append(pid)
    ticks, todo = 0, [r for r in roots if r in stats]
    while todo:
        pid = todo.pop()
        ticks += sum(stats[pid][1])
        todo += children.get(pid, [])
    return ticks / os.sysconf("SC_CLK_TCK")


def _roots(stack: Stack) -> list[int]:
    postmaster = int((stack.folder / "pg" / "postmaster.pid").read_text().split()[0])
    parts = [stack.webs[0], stack.redis]
    return [postmaster, *(p.pid for p in parts if p is not None)]


# The readers
# ----------------------------------------------------------------------------------


def _get(record: Record, kind: str, path: str, headers: dict[str, str]) -> tuple:
    """One GET as a browser or a script makes it: (status, ETag); checked, kept."""
    started = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", record.port, timeout=30)
    try:
        conn.request("GET", path, None, headers)
        response = conn.getresponse()
        response.read()
        status, tag = response.status, response.getheader("ETag")
    except OSError as error:
        status, tag = 0, str(error)
    finally:
        conn.close()
    with record.lock:
        record.samples[kind].append((started, time.monotonic() - started, status))
        record.statuses[(kind, status)] += 1
        if status not in (200, 304):
            record.wrong.append(f"{kind}: GET {path} answered {status}")
    return status, tag


def _readers(
    record: Record, kinds: list[tuple[str, str, dict, bool]], every: float, stop, seed
) -> None:
    """Readers, each (kind, path, headers, with its ETag) asking every `every`
    seconds, spread over the first period."""
    rng = random.Random(seed)
    now = time.monotonic()
    due = sorted((now + rng.uniform(0, every), i) for i in range(len(kinds)))
    tags: dict[int, str] = {}
    while due and not stop.is_set():
        at, who = due.pop(0)
        wait = at - time.monotonic()
        if wait > 0 and stop.wait(min(wait, 0.5)):
            break
        if wait > 0.5:
            due.insert(0, (at, who))
            continue
        kind, path, headers, etag = kinds[who]
        if etag and who in tags:
            headers = {**headers, "If-None-Match": tags[who]}
        status, tag = _get(record, kind, path, headers)
        if etag and status == 200 and tag:
            tags[who] = tag
        if kind == "turn a venue screen":  # the next view, as the page asks
            view = int(path.rsplit("=", 1)[1]) + 1
            kinds[who] = (kind, f"{path.rsplit('=', 1)[0]}={view}", headers, False)
        due.append((max(at + every, time.monotonic()), who))
        due.sort()


def _watchers(record: Record, args, stop) -> list[threading.Thread]:
    compress = args.compress
    page = (f"/t/{SLUG}/standings/", {"HX-Request": "true"})
    api = (f"/api/v1/tournaments/{SLUG}/standings/", {})
    spectators = [
        ("poll the standings page", *page, True)
        if i % 2 == 0
        else ("poll the standings API", *api, True)
        for i in range(args.spectators)
    ]
    readers = [
        ("read the statistics", f"/api/v1/tournaments/{SLUG}/statistics/", {}, True)
    ] * args.statistics
    screens = [
        ("turn a venue screen", f"/t/{SLUG}/screen/?view={i}", {"HX-Request": "true"},
         False)
        for i in range(args.screens)
    ]  # fmt: skip
    # Enough threads that a slow answer to one reader does not hold the others
    # back: each thread asks for its readers one after the other.
    n = READER_THREADS
    groups = [spectators[g::n] for g in range(n)] + [readers[g::4] for g in range(4)]
    periods = [POLL_SECONDS / compress] * (n + 4)
    groups.append(screens)
    periods.append(SCREEN_SECONDS / compress)
    return [
        threading.Thread(
            target=_readers,
            args=(record, list(group), every, stop, seed),
            name=f"watchers-{seed}",
        )
        for seed, (group, every) in enumerate(zip(groups, periods, strict=True))
        if group
    ]


# The run
# ----------------------------------------------------------------------------------


def _warm(record: Record) -> None:
    """Every worker past its first requests (imports, templates, connections) before
    anything is measured: each kind of reading a few times."""
    for _ in range(6):
        for path, headers in (
            (f"/t/{SLUG}/standings/", {"HX-Request": "true"}),
            (f"/api/v1/tournaments/{SLUG}/standings/", {}),
            (f"/api/v1/tournaments/{SLUG}/statistics/", {}),
            (f"/t/{SLUG}/screen/?view=0", {"HX-Request": "true"}),
        ):
            _get(record, "warm up", path, headers)
    if record.wrong:
        raise BenchFailed(f"the site did not answer: {record.wrong[0]}")


def _play(stack: Stack, record: Record, plans: list[dict], args, watched: bool):
    """One round: its tables, and the watchers when `watched`; (CPU s, wall s)."""
    stop = threading.Event()
    tables = [
        threading.Thread(
            target=_table, args=(t, i, record, args.round, stop), name=f"table-{i}"
        )
        for i, t in enumerate(plans)
    ]
    watchers = _watchers(record, args, stop) if watched else []
    roots = _roots(stack)
    cpu, started = server_cpu(roots), time.monotonic()
    try:
        for t in [*tables, *watchers]:
            t.start()
        deadline = started + max(args.round * 3, 120)
        for t in tables:
            t.join(timeout=max(0.0, deadline - time.monotonic()))
        if any(t.is_alive() for t in tables):
            raise BenchFailed("a table had not finished its round in time")
    finally:
        stop.set()
        for t in [*tables, *watchers]:
            t.join()
    return server_cpu(roots) - cpu, time.monotonic() - started


def run(session: Session, argv: list[str]) -> list[Figure]:
    parser = argparse.ArgumentParser(prog="python -m bench day")
    parser.add_argument("--teams", type=int, default=500)
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--statistics", type=int, default=100)
    parser.add_argument("--screens", type=int, default=4)
    parser.add_argument("--round", type=float, default=150.0)
    parser.add_argument("--compress", type=float, default=4.0)
    parser.add_argument("--web-workers", type=int, default=2)
    args = parser.parse_args(argv)
    print(
        f"bench: a day's reads beside its writes, {args.tables} tables of a "
        f"{args.teams}-team league, a round in {args.round:g} s; then again with "
        f"{args.spectators} spectators, {args.statistics} statistics readers and "
        f"{args.screens} screens, time compressed {args.compress:g}x; gunicorn of "
        f"{args.web_workers} workers"
    )
    stack = Stack.opened(session, "day", args.web_workers)
    try:
        plan = run_module(
            "bench.day",
            stack.db_url,
            "--child",
            "setup",
            str(args.teams),
            str(args.tables),
        )
        stack.web_start(0)
        _warm(Record(stack.web_ports[0]))
        alone, watched = Record(stack.web_ports[0]), Record(stack.web_ports[0])
        cpu_alone, wall_alone = _play(stack, alone, plan["rounds"][0], args, False)
        cpu_watched, wall_watched = _play(stack, watched, plan["rounds"][1], args, True)
        ids = [t["match"] for r in plan["rounds"] for t in r]
        problems = run_module(
            "bench.day", stack.db_url, "--child", "check", json.dumps(ids)
        )
    except BenchFailed:
        print(f"  --- web1.log ---\n{stack.log_tail('web1')}")
        raise
    finally:
        stack.close()
    return _report(
        args,
        (alone, cpu_alone, wall_alone),
        (watched, cpu_watched, wall_watched),
        problems,
    )


def _writes(record: Record) -> list[float]:
    return [
        seconds
        for kind, samples in record.samples.items()
        if kind.startswith("record a deal")
        for _, seconds, status in samples
        if status == 201
    ]


def _report(args, alone, watched, problems) -> list[Figure]:
    (r1, cpu1, wall1), (r2, cpu2, wall2) = alone, watched
    print(f"  {'':<34} {'answers':>8} {'p50 ms':>8} {'p99 ms':>8}")
    for name, record in (("round 1, nobody watching", r1), ("round 2, watched", r2)):
        print(f"  {name}")
        for kind in sorted(record.samples):
            samples = [s for _, s, status in record.samples[kind] if status]
            print(
                f"    {kind:<32} {len(samples):>8} {_quantile(samples, 50):8.1f} "
                f"{_quantile(samples, 99):8.1f}"
            )
    print(
        f"  the server's CPU: round 1 {cpu1:.1f} s in {wall1:.0f} s "
        f"({cpu1 / wall1:.2f} cores); round 2 {cpu2:.1f} s in {wall2:.0f} s "
        f"({cpu2 / wall2:.2f} cores)"
    )
    wrong = r1.wrong + r2.wrong
    for line in [*wrong[:10], *problems[:10]]:
        print(f"  ! {line}")
    w1, w2 = _writes(r1), _writes(r2)
    readers = args.spectators + args.statistics
    asked = readers * args.compress / POLL_SECONDS
    asked += args.screens * args.compress / SCREEN_SECONDS
    answered = sum(
        1
        for kind, samples in r2.samples.items()
        if not kind.startswith(("record a deal", "read a sheet"))
        for _, _, status in samples
        if status in (200, 304)
    ) / max(wall2, 1e-9)
    print(
        f"  the watchers: {asked:.0f} readings a second asked, {answered:.0f} answered"
    )
    figures = [
        Figure("day.write99", "day: a deal write while watched, p99",
               _quantile(w2, 99), "ms", "the same round unwatched, p99",
               _quantile(w1, 99)),
        Figure("day.cpu", "day: the server's CPU while watched", cpu2, "s",
               "the same round unwatched", cpu1),
        Figure("day.reads", "day: readings asked a second while watched", asked, "",
               "readings answered a second", answered),
        Figure("day.errors", "day: answers not as promised and sheets not as entered",
               len(wrong) + len(problems), ""),
    ]  # fmt: skip
    if wrong or problems:
        raise BenchFailed(
            f"{len(wrong)} answers not as promised, {len(problems)} sheets not as "
            "entered",
            figures,
        )
    return figures


if __name__ == "__main__":
    if sys.argv[1:3] == ["--child", "setup"]:
        print(json.dumps(_setup(int(sys.argv[3]), int(sys.argv[4]))))
    elif sys.argv[1:3] == ["--child", "check"]:
        with contextlib.redirect_stdout(sys.stderr):
            found = _check(json.loads(sys.argv[3]))
        print(json.dumps(found))
