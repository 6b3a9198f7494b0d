"""Every benchmark, at a size of seconds, in one process, in both orders: what
`make bench` runs at full size. A benchmark that leaves something behind that the
next one trips over (an environment variable, Django set up in the runner's process,
a server, a worker, a thread, a database) fails here, in CI.

Needs PostgreSQL and Redis, like `make bench`: it runs in the third pass of
`make test` (`make test-bench`, `pytest -m bench`), after the services are up."""

import json
import os
import re
import subprocess
import sys

import pytest

from bench import core, runner

pytestmark = pytest.mark.bench
LAST_LINE = re.compile(
    r"^bench: (\d+) figures against their goals, (\d+) met, (\d+) not met$"
)


# Redis databases of their own (not make bench's, 13): the two orders run at once,
# on the two workers of `make test-bench`, and the load bench empties its database.
REDIS_DB = {"forward": 12, "backward": 14}


def _bench(
    tmp_path, *args: str, redis_db: int = REDIS_DB["forward"]
) -> subprocess.CompletedProcess:
    """`python -m bench <args>`, as a user runs it; its pid is kept in `.pid`."""
    env = {
        **os.environ,
        "BENCH_RESULTS": str(tmp_path),
        "BENCH_REDIS_URL": f"redis://127.0.0.1:6379/{redis_db}",
    }
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE"):
        env.pop(name, None)
    process = subprocess.Popen(
        [sys.executable, "-m", "bench", *args],
        cwd=core.ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    out, err = process.communicate(timeout=900)
    done = subprocess.CompletedProcess(process.args, process.returncode, out, err)
    done.pid = process.pid
    return done


def _failure(out: str, err: str, folder) -> str:
    """What a failed run says first: each failed benchmark's own lines and error
    (the summary's table comes after them and would push them out of a tail),
    then the tails of its output."""
    failed = [line for line in out.splitlines() if "FAILED" in line]
    sections = []
    for line in failed:
        name = line.split("FAILED: ", 1)[-1].split(":", 1)[0].strip()
        start = out.find(f"== {name}\n")
        if start >= 0:
            end = out.find("\n== ", start + 1)
            sections.append(out[start : end if end > 0 else None][-4000:])
    errors = [
        f"{name}: {bench['error']}"
        for saved in folder.glob("*.json")
        for name, bench in json.loads(saved.read_text(encoding="utf-8"))[
            "benches"
        ].items()
        if not bench["ok"]
    ]
    tails = ["--- stdout ---", out[-2000:], "--- stderr ---", err[-2000:]]
    return "\n".join([*failed, *errors, *sections, *tails])


@pytest.mark.parametrize("order", ["forward", "backward"])
def test_every_benchmark_runs_tiny_in_one_process(tmp_path, order):
    names = list(runner.BENCHES)
    if order == "backward":
        names.reverse()
    done = _bench(tmp_path, "--tiny", *names, redis_db=REDIS_DB[order])
    out = done.stdout
    assert done.returncode == 0, _failure(out, done.stderr, tmp_path)
    assert "FAILED" not in out
    # Each ran, in the order asked.
    starts = [out.index(f"== {name}\n") for name in names]
    assert starts == sorted(starts)

    last = out.strip().splitlines()[-1]
    counted = LAST_LINE.match(last)
    assert counted, last
    n, met, not_met = map(int, counted.groups())
    assert n == met + not_met

    (saved,) = tmp_path.glob("*.json")
    record = json.loads(saved.read_text(encoding="utf-8"))
    assert record["tiny"] is True
    assert all(b["ok"] for b in record["benches"].values()), record["benches"]
    assert list(record["benches"]) == names
    assert len(record["figures"]) == n
    # Every goal of docs/performance.md has its figure: those measured on both
    # databases once for each.
    keys = [f["key"] for f in record["figures"]]
    assert set(keys) == set(core.goals_read())
    for key in ("standings.api", "standings.poll", "seeding", "workbook.time"):
        assert {f["where"] for f in record["figures"] if f["key"] == key} == {
            "SQLite",
            "PostgreSQL",
        }
    assert sum(f["met"] for f in record["figures"]) == met
    # The load's correctness: nothing failed, no sheet differs.
    load = {
        f["key"]: f["value"] for f in record["figures"] if f["key"].startswith("load")
    }
    assert load == {"load.errors": 0, "load.sheets": 0}
    # The faults' correctness: every answer as promised, no sheet differs, and each
    # part's work came back (docs/reliability.md).
    faults = {
        f["key"]: f["value"] for f in record["figures"] if f["key"].startswith("faults")
    }
    assert faults["faults.answers"] == 0
    assert faults["faults.sheets"] == 0
    for part in ("web", "database", "redis", "worker"):
        assert faults[f"faults.{part}"] < 60, (part, faults)
    # Nothing of the run is left in PostgreSQL (its databases are named by its pid).
    assert not core.pg_databases(f"{core.PG_PREFIX}{done.pid}_")


def test_compare_reads_two_tiny_runs(tmp_path):
    for _ in range(2):
        assert _bench(tmp_path, "--tiny", "draw").returncode == 0
    compared = _bench(tmp_path, "compare")
    assert compared.returncode == 0, compared.stderr
    row = next(line for line in compared.stdout.splitlines() if "the draw of" in line)
    assert re.search(r"[+-]\d+%", row), row
