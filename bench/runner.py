"""`python -m bench`: run the benchmarks, print their figures against the goals of
docs/performance.md, and keep the run as JSON.

    python -m bench                   every benchmark, at full size (make bench)
    python -m bench standings export  these, in this order
    python -m bench export --teams 100
                                      one benchmark's own options (see its module)
    python -m bench --tiny            every benchmark at a size of seconds (the test)
    python -m bench compare [A [B]]   two runs side by side (default: the last two)

A run is kept in var/bench/ (or $BENCH_RESULTS) as <commit>-<time>.json. The exit
status is 0 unless a benchmark failed to run, a correctness check inside one failed,
or one left the process other than it found it; figures that miss their goals are
reported, not failed on.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import subprocess
import sys
import time
import traceback
from pathlib import Path

from bench import (
    backup,
    core,
    day,
    deal_api,
    draw,
    export,
    faults,
    knockout,
    load,
    ratings,
    rebuild,
    standings,
    uploads,
)

BENCHES = {
    "draw": draw,
    "deal_api": deal_api,
    "standings": standings,
    "knockout": knockout,
    "export": export,
    "load": load,
    "backup": backup,
    "uploads": uploads,
    "faults": faults,
    "day": day,
    "ratings": ratings,
    "rebuild": rebuild,
}


def results_folder() -> Path:
    return Path(os.environ.get("BENCH_RESULTS") or core.ROOT / "var" / "bench")


def _commit() -> tuple[str, bool]:
    def git(*args: str) -> str:
        out = subprocess.run(  # noqa: S603 - our own fixed command line
            ["git", *args],  # noqa: S607 - git from PATH, as a developer runs it
            cwd=core.ROOT,
            capture_output=True,
            text=True,
        )
        return out.stdout.strip() if out.returncode == 0 else ""

    commit = git("rev-parse", "--short=12", "HEAD") or "unknown"
    return commit, bool(git("status", "--porcelain", "--untracked-files=no"))


def _run_one(name: str, session: core.Session, argv: list[str]) -> dict:
    """One benchmark, checked to leave the process as it found it."""
    module = BENCHES[name]
    before = core.Snapshot.take(session.own_prefix)
    started = time.perf_counter()
    outcome: dict = {"ok": True, "figures": [], "error": ""}
    try:
        outcome["figures"] = module.run(session, list(argv))
    except KeyboardInterrupt:
        raise
    except core.BenchFailed as failure:
        outcome.update(ok=False, error=str(failure), figures=failure.figures)
    except SystemExit as leaving:  # argparse's answer to --help or a bad option
        if leaving.code not in (0, None):
            outcome.update(ok=False, error=f"stopped: {leaving}")
    except Exception:
        outcome.update(ok=False, error=traceback.format_exc())
    left = before.restore(session.own_prefix)
    if left:
        outcome["ok"] = False
        outcome["error"] += "left the process other than it found it: " + "; ".join(
            left
        )
    outcome["seconds"] = time.perf_counter() - started
    return outcome


def _fmt(value: float | None, unit: str = "") -> str:
    if value is None:
        return "—"
    if unit == "×":
        return f"{value:.2f}×"
    # A count has no decimals; a share or a score below 1 (the ratings') has three.
    whole = abs(value) >= 100 or (unit == "" and float(value).is_integer())
    digits = 0 if whole else 1 if abs(value) >= 10 else 3 if abs(value) < 1 else 2
    return f"{value:.{digits}f} {unit}".strip()


def summary(figures: list[core.Figure], goals: dict[str, core.Goal]) -> list[str]:
    """The table of figures against goals, then the count line (the last line)."""
    lines = [
        f"  {'figure':<52} {'measured':>9}  {'baseline (same run)':<30} "
        f"{'ratio':>6}  {'goal':<8} met"
    ]
    met = 0
    for f in figures:
        goal = goals[f.key]
        ok = goal.met(f)
        met += ok
        baseline = (
            f"{f.baseline} {_fmt(f.baseline_value, f.unit)}" if f.baseline else "—"
        )
        lines.append(
            f"  {f.title[:52]:<52} {_fmt(f.value, f.unit):>9}  {baseline[:30]:<30} "
            f"{_fmt(f.ratio, '×'):>6}  {goal.text[:8]:<8} {'yes' if ok else 'NO'}"
        )
    lines.append(
        f"bench: {len(figures)} figures against their goals, {met} met, "
        f"{len(figures) - met} not met"
    )
    return lines


def _save(record: dict) -> Path:
    folder = results_folder()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    path = folder / f"{record['commit']}-{stamp}.json"
    again = 1
    while path.exists():  # two runs in one second: keep both
        again += 1
        path = folder / f"{record['commit']}-{stamp}-{again}.json"
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return path


def run(names: list[str], argv: list[str], *, tiny: bool = False) -> int:
    goals = core.goals_read()
    commit, dirty = _commit()
    record: dict = {
        "commit": commit,
        "dirty": dirty,
        "tiny": tiny,
        "started": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "system": platform.platform(),
        },
        "benches": {},
        "figures": [],
    }
    started = time.perf_counter()
    session = core.Session(tiny=tiny)
    figures: list[core.Figure] = []
    failed: list[str] = []
    try:
        for name in names:
            print(f"== {name}", flush=True)
            args = BENCHES[name].TINY + argv if tiny else argv
            outcome = _run_one(name, session, args)
            record["benches"][name] = {
                "ok": outcome["ok"],
                "seconds": round(outcome["seconds"], 1),
                "error": outcome["error"],
            }
            stray = sorted({f.key for f in outcome["figures"] if f.key not in goals})
            if stray:
                outcome["ok"] = False
                outcome["error"] += f"no goal in performance.md for {', '.join(stray)}"
                record["benches"][name].update(ok=False, error=outcome["error"])
            figures += [f for f in outcome["figures"] if f.key in goals]
            if not outcome["ok"]:
                failed.append(name)
                print(f"  FAILED: {name}: {outcome['error'].strip()}", flush=True)
            print(f"  ({name}: {outcome['seconds']:.0f} s)", flush=True)
    finally:
        session.close()
    record["seconds"] = round(time.perf_counter() - started, 1)
    record["figures"] = [
        {**f.as_json(), "goal": goals[f.key].text, "met": goals[f.key].met(f)}
        for f in figures
    ]
    saved = _save(record)
    print()
    print(
        f"== summary: {len(names)} benchmarks in {record['seconds'] / 60:.1f} min"
        f"{', tiny sizes' if tiny else ''}; goals from docs/performance.md; "
        f"kept as {saved.relative_to(core.ROOT) if _inside(saved) else saved}"
    )
    if failed:
        print(f"FAILED: {', '.join(failed)} (see above)")
    for line in summary(figures, goals):
        print(line)
    return 1 if failed else 0


def _inside(path: Path) -> bool:
    try:
        path.relative_to(core.ROOT)
    except ValueError:
        return False
    return True


# Comparing two runs
# ----------------------------------------------------------------------------------


def _find(spec: str | None, runs: list[Path], nth: int) -> Path:
    """A run given as a path, or as the start of a commit (its latest run), or
    (none given) the nth latest run."""
    if spec is None:
        if len(runs) <= nth:
            raise SystemExit(f"compare: {len(runs)} runs kept in {results_folder()}")
        return runs[-1 - nth]
    path = Path(spec)
    if path.is_file():
        return path
    matching = [r for r in runs if r.name.startswith(spec)]
    if not matching:
        raise SystemExit(f"compare: no run of {spec!r} in {results_folder()}")
    return matching[-1]


def compare(a_spec: str | None, b_spec: str | None) -> int:
    runs = sorted(results_folder().glob("*.json"), key=lambda p: p.stat().st_mtime)
    a, b = _find(a_spec, runs, 1), _find(b_spec, runs, 0)
    old, new = (json.loads(p.read_text(encoding="utf-8")) for p in (a, b))
    print(f"A: {a.name} (commit {old['commit']}{', dirty' if old['dirty'] else ''})")
    print(f"B: {b.name} (commit {new['commit']}{', dirty' if new['dirty'] else ''})")
    if old.get("tiny") != new.get("tiny"):
        print("note: one of the two ran at tiny sizes; its figures are not comparable")
    keyed = {(f["key"], f["where"]): f for f in old["figures"]}
    print(
        f"  {'figure':<44} {'A':>10} {'A ratio':>8} {'B':>10} {'B ratio':>8} "
        f"{'change':>8}  goal"
    )
    seen = set()
    for f in new["figures"]:
        seen.add((f["key"], f["where"]))
        before = keyed.get((f["key"], f["where"]))
        title = f"{f['name']} ({f['where']})" if f["where"] else f["name"]
        a_value = _fmt(before["value"], before["unit"]) if before else "—"
        a_ratio = _fmt(before["ratio"], "×") if before else "—"
        change = "—"
        if before and before["ratio"] and f["ratio"]:
            change = f"{100 * (f['ratio'] / before['ratio'] - 1):+.0f}%"
        elif before and not f["ratio"] and before["value"]:
            change = f"{100 * (f['value'] / before['value'] - 1):+.0f}%"
        marks = ("met" if before["met"] else "not met") if before else "—"
        print(
            f"  {title[:44]:<44} {a_value:>10} {a_ratio:>8} "
            f"{_fmt(f['value'], f['unit']):>10} {_fmt(f['ratio'], '×'):>8} "
            f"{change:>8}  {f['goal']}: {marks} → {'met' if f['met'] else 'not met'}"
        )
    for key, f in keyed.items():
        if key not in seen:
            print(f"  {f['name'][:44]:<44} measured in A only")
    print("  change: of the ratio to the same run's baseline where there is one")
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["compare"]:
        rest = argv[1:]
        if len(rest) > 2:
            raise SystemExit("usage: python -m bench compare [A [B]]")
        return compare(*[*rest, None, None][:2])
    parser = argparse.ArgumentParser(
        prog="python -m bench", description=__doc__.splitlines()[0], add_help=False
    )
    parser.add_argument("--tiny", action="store_true")
    parser.add_argument("-h", "--help", action="store_true")
    known, rest = parser.parse_known_args(argv)
    if known.help:
        print(__doc__)
        return 0
    names = [a for a in rest if a in BENCHES]
    passed = [a for a in rest if a not in BENCHES]
    return run(names or list(BENCHES), passed, tiny=known.tiny)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
