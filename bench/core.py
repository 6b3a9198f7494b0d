"""What the benchmarks share: figures and their goals, the run's databases, and the
check that a benchmark leaves the process as it found it.

A benchmark is a module of bench/ with `run(session, argv) -> list[Figure]` (it prints
its own details as it goes) and `TINY` (the arguments of a run of a few seconds, for
the test that runs them all). Everything that touches Django runs in a child process
of its own, on a database the session gives it; the benchmark's own process never
imports Django, never changes os.environ and leaves no server, worker, thread or
database behind. `bench.runner` checks that after each one (`Snapshot`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOALS_FILE = ROOT / "docs" / "performance.md"
PG_SERVER = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"
).rsplit("/", 1)[0]
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
PG_PREFIX = "fiftysix_bench_"
VENDORS = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


class BenchFailed(Exception):
    """A benchmark could not run, or a correctness check inside it failed; with the
    figures it did measure (they still go in the summary)."""

    def __init__(self, message: str, figures: list[Figure] | None = None) -> None:
        super().__init__(message)
        self.figures = figures or []


# Figures and goals
# ----------------------------------------------------------------------------------

_SCALE = {"ms": ("time", 1e-3), "s": ("time", 1.0), "MB": ("memory", 1.0)}
_SCALE[""] = ("count", 1.0)


@dataclass(frozen=True)
class Figure:
    """One headline figure of a run, beside the baseline measured in the same run."""

    key: str  # its goal's key in docs/performance.md
    name: str
    value: float
    unit: str  # ms | s | MB | "" (a count)
    baseline: str = ""  # what the value is set against
    baseline_value: float | None = None
    where: str = ""  # PostgreSQL, SQLite, or "" where it does not apply

    @property
    def ratio(self) -> float | None:
        if self.baseline_value:
            return self.value / self.baseline_value
        return None

    @property
    def title(self) -> str:
        return f"{self.name} ({self.where})" if self.where else self.name

    def as_json(self) -> dict:
        return {**asdict(self), "ratio": self.ratio}


@dataclass(frozen=True)
class Goal:
    """A goal as docs/performance.md states it: `≤ 1.5×` holds the ratio to the
    baseline, `≤ 3 s`, `< 300 MB` or `= 0` the figure itself."""

    key: str
    text: str
    op: str  # ≤ < =
    limit: float
    unit: str  # × for a ratio, else ms | s | MB | ""

    def met(self, figure: Figure) -> bool:
        if self.unit == "×":
            if figure.ratio is None:
                raise BenchFailed(f"{figure.key}: a ratio goal but no baseline")
            value = figure.ratio
        else:
            kind, scale = _SCALE[figure.unit]
            goal_kind, goal_scale = _SCALE[self.unit]
            if kind != goal_kind:
                raise BenchFailed(f"{figure.key}: {figure.unit} against {self.text}")
            value = figure.value * scale / goal_scale
        if self.op == "≤":
            return value <= self.limit
        if self.op == "<":
            return value < self.limit
        return value == self.limit


_GOAL_ROW = re.compile(
    r"^\|\s*`(?P<key>[a-z0-9_.]+)`\s*\|[^|]*\|\s*(?P<goal>[^|]+?)\s*\|"
)
_GOAL = re.compile(r"^(?P<op>≤|<|=)\s*(?P<limit>\d+(?:\.\d+)?)\s*(?P<unit>×|ms|s|MB)?")


def goals_read(path: Path = GOALS_FILE) -> dict[str, Goal]:
    """The goals table of docs/performance.md: rows whose first cell is a `key`."""
    goals = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = _GOAL_ROW.match(line)
        if not row:
            continue
        text = row["goal"]
        parsed = _GOAL.match(text)
        if not parsed:
            raise BenchFailed(f"{path.name}: goal of {row['key']} unreadable: {text!r}")
        goals[row["key"]] = Goal(
            key=row["key"],
            text=text,
            op=parsed["op"],
            limit=float(parsed["limit"]),
            unit=parsed["unit"] or "",
        )
    return goals


# Child processes
# ----------------------------------------------------------------------------------


def child_env(database_url: str, **extra: str) -> dict[str, str]:
    """The production settings (DEBUG off, bench/settings.py) on `database_url`, for a
    child process; no broker unless `extra` gives one."""
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "bench-only-secret-key-" + "x" * 40,
        "DJANGO_ALLOWED_HOSTS": "testserver,127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "CELERY_BROKER_URL": "",
        "PYTHONPATH": str(ROOT),
        **extra,
    }


def run_module(module: str, database_url: str, *args: str, env=None) -> dict:
    """`python -m <module> <args>` on `database_url`; the last line it prints, as
    JSON. Its other output (its own progress) is passed on."""
    out = subprocess.run(  # noqa: S603 - our own fixed command line
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        env={**child_env(database_url), **(env or {})},
        capture_output=True,
        text=True,
    )
    if out.returncode:
        where = database_url.split(":")[0]
        raise BenchFailed(f"{module} {' '.join(args)} on {where} failed:\n{out.stderr}")
    lines = out.stdout.strip().splitlines()
    if len(lines) > 1:
        print("\n".join(lines[:-1]))
    return json.loads(lines[-1])


def manage(database_url: str, *command: str) -> None:
    subprocess.run(  # noqa: S603 - our own fixed command line
        [sys.executable, "manage.py", *command, "-v0"],
        cwd=ROOT,
        env=child_env(database_url),
        check=True,
    )


def free_port() -> int:
    """A port nobody listens on now (the system's choice), for a server of ours."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port: int, process: subprocess.Popen, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise BenchFailed(
                f"the server on port {port} stopped: {process.returncode}"
            )
        with (
            contextlib.suppress(OSError),
            socket.create_connection(("127.0.0.1", port), 1),
        ):
            return
        time.sleep(0.1)
    raise BenchFailed(f"nothing answers on port {port} after {seconds:.0f} s")


@contextlib.contextmanager
def running(command: list[str], env: dict[str, str]) -> Iterator[subprocess.Popen]:
    """A server or worker of ours, stopped (and waited for) however the block ends."""
    process = subprocess.Popen(command, cwd=ROOT, env=env)  # noqa: S603
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def gunicorn(env: dict[str, str], workers: int) -> Iterator[int]:
    """gunicorn with the production WSGI app on a free port, once it answers."""
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "tournament.config.wsgi"]
    command += [f"--bind=127.0.0.1:{port}", f"--workers={workers}", "--backlog=512"]
    command += ["--log-level=warning"]
    with running(command, env) as server:
        wait_listening(port, server)
        yield port


def gunicorn_workers(port: int, count: int | None = None) -> list[int]:
    """The pids of the workers of our gunicorn on `port` (Linux's /proc): processes
    with its command line whose parent has it too. With `count`, looked for again for
    up to 10 s until there are that many (a worker the master is still forking, or
    forking again, has no command line of its own yet)."""
    bind = f"--bind=127.0.0.1:{port}".encode()
    deadline = time.monotonic() + 10
    while True:
        found: dict[int, int] = {}
        for entry in Path("/proc").glob("[0-9]*"):
            with contextlib.suppress(OSError):
                if bind in (entry / "cmdline").read_bytes().split(b"\0"):
                    stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                    found[int(entry.name)] = int(stat[1])
        workers = sorted(pid for pid, parent in found.items() if parent in found)
        if count is None or len(workers) == count or time.monotonic() > deadline:
            return workers
        time.sleep(0.1)


# The run's databases
# ----------------------------------------------------------------------------------


def _pg(database: str = "postgres"):
    import psycopg

    return psycopg.connect(f"{PG_SERVER}/{database}", autocommit=True)


def pg_databases(prefix: str) -> set[str]:
    with _pg() as conn:
        rows = conn.execute(
            "SELECT datname FROM pg_database WHERE datname LIKE %s", [prefix + "%"]
        ).fetchall()
    return {name for (name,) in rows}


def _pg_drop(name: str) -> None:
    with _pg() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass
class Database:
    url: str
    vendor: str
    built: dict = field(default_factory=dict)  # what the league template holds

    @property
    def where(self) -> str:
        return VENDORS[self.vendor]


class Session:
    """One `python -m bench`: a scratch folder, and database templates built once and
    copied for each benchmark (the migrated schema; the 500-team league of
    bench/league.py, and the same with every sheet confirmed and a knockout seeded).
    Closing it drops and deletes everything it made."""

    def __init__(self, *, tiny: bool = False) -> None:
        self.tiny = tiny
        self.prefix = f"{PG_PREFIX}{os.getpid()}_"
        self.folder = Path(tempfile.mkdtemp(prefix="fiftysix-bench-"))
        # The collected static files of this run's children (bench/settings.py).
        os.environ["BENCH_STATIC_ROOT"] = str(self.folder / "static")
        self.redis_url = REDIS_URL
        self._templates: dict[tuple, Database] = {}
        self._static = False

    def close(self) -> None:
        if any(t.vendor == "postgresql" for t in self._templates.values()):
            for name in pg_databases(self.prefix):
                _pg_drop(name)
        self._templates.clear()
        shutil.rmtree(self.folder, ignore_errors=True)

    # A database of one vendor: a copy of a template.

    def _copy(self, template: Database, name: str) -> Database:
        """A copy of `template` named `name` (t_… a template, b_… a benchmark's)."""
        if template.vendor == "sqlite":
            path = self.folder / f"{name}.sqlite3"
            shutil.copyfile(template.url.removeprefix("sqlite:///"), path)
            return Database(f"sqlite:///{path}", "sqlite", template.built)
        with _pg() as conn:
            conn.execute(
                f'CREATE DATABASE "{self.prefix}{name}" '
                f'TEMPLATE "{template.url.rsplit("/", 1)[1]}"'
            )
        return Database(
            f"{PG_SERVER}/{self.prefix}{name}", "postgresql", template.built
        )

    def _drop(self, database: Database) -> None:
        if database.vendor == "sqlite":
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(database.url.removeprefix("sqlite:///") + suffix).unlink(
                    missing_ok=True
                )
        else:
            _pg_drop(database.url.rsplit("/", 1)[1])

    def _empty(self, vendor: str, name: str) -> Database:
        if vendor == "sqlite":
            return Database(f"sqlite:///{self.folder / name}.sqlite3", "sqlite")
        _pg_drop(self.prefix + name)
        with _pg() as conn:
            conn.execute(f'CREATE DATABASE "{self.prefix}{name}"')
        return Database(f"{PG_SERVER}/{self.prefix}{name}", "postgresql")

    def _template(self, vendor: str, teams: int | None, stage: str) -> Database:
        key = (vendor, teams, stage)
        if key in self._templates:
            return self._templates[key]
        started = time.perf_counter()
        if stage == "schema":
            made = self._empty(vendor, "t_schema")
            manage(made.url, "migrate")
            if not self._static:  # the production settings serve collected files
                manage(made.url, "collectstatic", "--no-input")
                self._static = True
        elif stage == "league":
            made = self._copy(
                self._template(vendor, None, "schema"), f"t_league_{teams}"
            )
            made.built = run_module("bench.league", made.url, "league", str(teams))
        else:  # "knockout": every sheet confirmed, a knockout of 24 seeded
            made = self._copy(
                self._template(vendor, teams, "league"), f"t_knockout_{teams}"
            )
            made.built = {
                **made.built,
                **run_module("bench.league", made.url, "knockout"),
            }
        took = time.perf_counter() - started
        what = f"{teams} teams, {stage}" if teams else stage
        print(f"  (template: {VENDORS[vendor]}, {what}, made in {took:.1f} s)")
        self._templates[key] = made
        return made

    @contextlib.contextmanager
    def database(
        self, vendor: str, name: str, *, teams: int | None = None, stage="league"
    ) -> Iterator[Database]:
        """A database of the benchmark's own: migrated and empty, or (with `teams`)
        holding the league of that many teams at `stage` (league: drawn and scored;
        knockout: confirmed, a knockout of 24 seeded). Dropped at the end."""
        template = self._template(vendor, teams, stage if teams else "schema")
        database = self._copy(template, f"b_{name}")
        try:
            yield database
        finally:
            self._drop(database)

    @property
    def own_prefix(self) -> str:
        """The prefix of the benchmarks' own databases (not the templates)."""
        return self.prefix + "b_"

    def vendors(self, argv_vendors: str) -> list[str]:
        names = [v.strip() for v in argv_vendors.split(",") if v.strip()]
        unknown = [v for v in names if v not in VENDORS]
        if unknown:
            raise BenchFailed(f"--vendors: unknown {unknown}; known: {list(VENDORS)}")
        return names


# The process as the benchmark found it
# ----------------------------------------------------------------------------------


def _children() -> set[int]:
    """The pids of this process's living children (Linux's /proc)."""
    me = str(os.getpid())
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if fields[1] == me and fields[0] != "Z":
                found.add(int(stat.parent.name))
    return found


def _django_configured() -> bool:
    conf = sys.modules.get("django.conf")
    return bool(conf and conf.settings.configured)


@dataclass
class Snapshot:
    """What a benchmark must leave as it found it."""

    environ: dict[str, str]
    cwd: str
    path: list[str]
    threads: set[int]
    children: set[int]
    django: bool
    databases: set[str] | None

    @classmethod
    def take(cls, prefix: str | None = None) -> Snapshot:
        databases = None
        if prefix:
            with contextlib.suppress(Exception):
                databases = pg_databases(prefix)
        return cls(
            environ=dict(os.environ),
            cwd=os.getcwd(),
            path=list(sys.path),
            threads={t.ident for t in threading.enumerate() if t.ident},
            children=_children(),
            django=_django_configured(),
            databases=databases,
        )

    def restore(self, prefix: str | None = None) -> list[str]:
        """What changed since the snapshot, put back where it can be; what was left."""
        now = Snapshot.take(prefix)
        left = []
        changed = sorted(
            k
            for k in set(self.environ) | set(now.environ)
            if self.environ.get(k) != now.environ.get(k)
        )
        if changed:
            left.append(f"environment variables changed: {', '.join(changed)}")
            os.environ.clear()
            os.environ.update(self.environ)
        if now.cwd != self.cwd:
            left.append(f"working directory changed to {now.cwd}")
            os.chdir(self.cwd)
        if now.path != self.path:
            left.append("sys.path changed")
            sys.path[:] = self.path
        if now.django and not self.django:
            left.append("Django was set up in the benchmarks' own process")
        threads = [
            t.name
            for t in threading.enumerate()
            if t.ident not in self.threads and t.is_alive()
        ]
        if threads:
            left.append(f"threads still running: {', '.join(threads)}")
        extra = now.children - self.children
        if extra:
            left.append(f"child processes still running: {sorted(extra)}")
            for pid in extra:
                with contextlib.suppress(OSError):
                    os.kill(pid, 15)
        if self.databases is not None and now.databases is not None:
            kept = sorted(now.databases - self.databases)
            if kept:
                left.append(f"databases left behind: {', '.join(kept)}")
                for name in kept:
                    _pg_drop(name)
        return left


# Timing and printing
# ----------------------------------------------------------------------------------


def median_ms(work, repeat: int) -> float:
    """The median of `repeat` timed calls of `work`, in milliseconds, after one
    untimed call (imports, connections, templates)."""
    import statistics

    work()
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def print_ratios(r: dict, rows, width: int = 40) -> None:
    """The baseline (count(*), before and after) and each figure against it."""
    base = (r["count_ms"] + r["count_again_ms"]) / 2
    print(f"    {'':<{width}} {'median':>10}   {'x count(*)':>10}")
    print(f"    {'SELECT count(*) over the deals':<{width}} {base:7.2f} ms")
    for key, name in rows:
        print(f"    {name:<{width}} {r[key]:7.1f} ms   {r[key] / base:9.0f}x")
