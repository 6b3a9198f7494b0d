"""The benchmarks' instrument: goals read from docs/performance.md, figures held to
them, the summary and its last line, comparing two runs, and the check that a
benchmark leaves the process as it found it. (The benchmarks themselves run in
test_tiny.py.)"""

import json
import os
import re
import subprocess
import sys
import threading
import types

import pytest

from bench import core, runner

LAST_LINE = re.compile(
    r"^bench: (\d+) figures against their goals, (\d+) met, (\d+) not met$"
)


def test_every_goal_of_docs_performance_is_read():
    goals = core.goals_read()
    assert set(goals) == {
        "deal.floor",
        "deal.bare",
        "standings.api",
        "standings.poll",
        "standings.page_poll",
        "statistics.api",
        "statistics.computed",
        "workbook.time",
        "workbook.memory",
        "seeding",
        "backup.seeding",
        "backup.draw",
        "backup.reopen",
        "backup.import",
        "draw",
        "load.errors",
        "load.sheets",
        "upload.bomb",
        "upload.memory",
        "upload.deals",
        "day.write99",
        "day.cpu",
        "day.reads",
        "day.errors",
        "ratings.misses",
        "ratings.brier",
        "ratings.order",
        "ratings.rebuild",
        "faults.answers",
        "faults.sheets",
        "faults.web",
        "faults.database",
        "faults.redis",
        "faults.worker",
        "faults.write50",
        "faults.write99",
        "faults.polls",
        "faults.poll99",
    }
    assert goals["deal.floor"] == core.Goal("deal.floor", "≤ 1.5×", "≤", 1.5, "×")
    assert (goals["workbook.memory"].op, goals["workbook.memory"].limit) == ("<", 300)
    assert goals["workbook.time"].unit == "s"
    assert goals["load.sheets"].text == "= 0"
    assert goals["faults.database"] == core.Goal(
        "faults.database", "≤ 5 s", "≤", 5, "s"
    )


def test_an_unreadable_goal_is_refused_with_its_key(tmp_path):
    doc = tmp_path / "performance.md"
    doc.write_text("| `draw` | the draw | fast | — | why |\n", encoding="utf-8")
    with pytest.raises(core.BenchFailed, match="goal of draw unreadable: 'fast'"):
        core.goals_read(doc)


def figure(value, unit="ms", baseline_value=None, key="k"):
    return core.Figure(key, "a figure", value, unit, "floor", baseline_value)


@pytest.mark.parametrize(
    ("goal", "fig", "met"),
    [
        (
            core.Goal("k", "≤ 1.5×", "≤", 1.5, "×"),
            figure(3.0, baseline_value=2.0),
            True,
        ),
        (
            core.Goal("k", "≤ 1.5×", "≤", 1.5, "×"),
            figure(3.1, baseline_value=2.0),
            False,
        ),
        (core.Goal("k", "≤ 3 s", "≤", 3, "s"), figure(2999.0), True),  # ms against s
        (core.Goal("k", "≤ 3 s", "≤", 3, "s"), figure(3001.0), False),
        (core.Goal("k", "≤ 3 s", "≤", 3, "s"), figure(3.0, "s"), True),
        (core.Goal("k", "≤ 5 ms", "≤", 5, "ms"), figure(0.004, "s"), True),
        (core.Goal("k", "< 300 MB", "<", 300, "MB"), figure(300.0, "MB"), False),
        (core.Goal("k", "< 300 MB", "<", 300, "MB"), figure(299.9, "MB"), True),
        (core.Goal("k", "= 0", "=", 0, ""), figure(0, ""), True),
        (core.Goal("k", "= 0", "=", 0, ""), figure(1, ""), False),
    ],
)
def test_a_goal_holds_the_ratio_or_the_figure_in_its_own_unit(goal, fig, met):
    assert goal.met(fig) is met


def test_a_goal_refuses_a_figure_it_cannot_compare():
    with pytest.raises(core.BenchFailed, match="no baseline"):
        core.Goal("k", "≤ 2×", "≤", 2, "×").met(figure(1.0))
    with pytest.raises(core.BenchFailed, match="MB against ≤ 3 s"):
        core.Goal("k", "≤ 3 s", "≤", 3, "s").met(figure(1.0, "MB"))


def test_the_summary_ends_with_the_count_of_goals_met():
    goals = {
        "a": core.Goal("a", "≤ 2×", "≤", 2, "×"),
        "b": core.Goal("b", "≤ 5 ms", "≤", 5, "ms"),
    }
    lines = runner.summary(
        [
            core.Figure("a", "ranking", 30.0, "ms", "one SUM", 20.0, "PostgreSQL"),
            core.Figure("a", "ranking", 50.0, "ms", "one SUM", 20.0, "SQLite"),
            core.Figure("b", "a poll", 4.2, "ms"),
        ],
        goals,
    )
    assert lines[-1] == "bench: 3 figures against their goals, 2 met, 1 not met"
    assert "ranking (PostgreSQL)" in lines[1] and "1.50×" in lines[1]
    assert lines[1].endswith("yes") and lines[2].endswith("NO")
    assert "one SUM 20.0 ms" in lines[2] and "2.50×" in lines[2]


def _run_record(folder, name, commit, figures, tiny=False):
    record = {
        "commit": commit,
        "dirty": False,
        "tiny": tiny,
        "figures": [
            {**f.as_json(), "goal": g.text, "met": g.met(f)} for f, g in figures
        ],
    }
    path = folder / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def test_compare_prints_two_runs_and_the_change_of_each_ratio(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("BENCH_RESULTS", str(tmp_path))
    goal = core.Goal("deal.floor", "≤ 1.5×", "≤", 1.5, "×")
    zero = core.Goal("load.errors", "= 0", "=", 0, "")
    deal = lambda v: core.Figure("deal.floor", "a deal", v, "ms", "floor", 5.0, "PG")  # noqa: E731
    errors = core.Figure("load.errors", "errors", 0, "")
    a = _run_record(
        tmp_path, "aaaa-1.json", "aaaa", [(deal(7.0), goal), (errors, zero)]
    )
    os.utime(a, (1, 1))
    _run_record(tmp_path, "bbbb-2.json", "bbbb", [(deal(8.4), goal), (errors, zero)])

    assert runner.main(["compare"]) == 0  # the last two runs
    out = capsys.readouterr().out
    assert "A: aaaa-1.json (commit aaaa)" in out and "B: bbbb-2.json" in out
    row = next(line for line in out.splitlines() if "a deal (PG)" in line)
    # 1.40× then 1.68×: the ratio grew by a fifth, and the goal is no longer met.
    assert "1.40×" in row and "1.68×" in row and "+20%" in row
    assert "met → not met" in row

    assert runner.main(["compare", "aaaa", str(tmp_path / "bbbb-2.json")]) == 0
    assert "+20%" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="no run of 'cccc'"):
        runner.main(["compare", "cccc"])


def test_compare_warns_when_a_run_was_tiny(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BENCH_RESULTS", str(tmp_path))
    goal = core.Goal("draw", "< 100 ms", "<", 100, "ms")
    draw = core.Figure("draw", "the draw", 40.0, "ms", "pairs", 10.0)
    _run_record(tmp_path, "a.json", "a", [(draw, goal)], tiny=True)
    _run_record(tmp_path, "b.json", "b", [(draw, goal)])
    runner.compare(str(tmp_path / "a.json"), str(tmp_path / "b.json"))
    assert "not comparable" in capsys.readouterr().out


# The process as a benchmark found it
# ----------------------------------------------------------------------------------


def _leaky(work):
    return types.SimpleNamespace(run=lambda session, argv: work() or [], TINY=[])


@pytest.fixture
def session(monkeypatch):
    made = core.Session(tiny=True)
    yield made
    made.close()


def test_a_benchmark_that_changes_the_environment_fails_and_it_is_put_back(
    session, monkeypatch
):
    monkeypatch.setitem(
        runner.BENCHES,
        "leaky",
        _leaky(lambda: os.environ.update(DATABASE_URL="postgres://elsewhere/db")),
    )
    before = os.environ.get("DATABASE_URL")
    outcome = runner._run_one("leaky", session, [])
    assert not outcome["ok"]
    assert "environment variables changed: DATABASE_URL" in outcome["error"]
    assert os.environ.get("DATABASE_URL") == before


def test_a_benchmark_that_leaves_a_thread_or_a_child_running_fails(
    session, monkeypatch
):
    stop = threading.Event()
    children = []

    def leave_both():
        threading.Thread(target=stop.wait, name="left-behind").start()
        children.append(
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        )

    monkeypatch.setitem(runner.BENCHES, "leaky", _leaky(leave_both))
    outcome = runner._run_one("leaky", session, [])
    stop.set()
    assert not outcome["ok"]
    assert "threads still running: left-behind" in outcome["error"]
    assert f"child processes still running: [{children[0].pid}]" in outcome["error"]
    assert children[0].wait(timeout=10) == -15  # and it was stopped


def test_a_benchmark_that_fails_is_reported_and_the_others_go_on(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("BENCH_RESULTS", str(tmp_path))

    def broken():
        raise core.BenchFailed(
            "3 sheets differ", [core.Figure("load.sheets", "sheets", 3, "")]
        )

    fine = types.SimpleNamespace(
        run=lambda session, argv: [
            core.Figure("draw", "the draw", 40.0, "ms", "pairs", 2.0)
        ],
        TINY=[],
    )
    monkeypatch.setattr(runner, "BENCHES", {"broken": _leaky(broken), "fine": fine})
    assert runner.run(["broken", "fine"], [], tiny=True) == 1
    out = capsys.readouterr().out.splitlines()
    assert "  FAILED: broken: 3 sheets differ" in out
    assert out[-1] == "bench: 2 figures against their goals, 1 met, 1 not met"
    (saved,) = tmp_path.glob("*.json")
    record = json.loads(saved.read_text(encoding="utf-8"))
    assert record["benches"]["broken"]["ok"] is False
    assert record["benches"]["fine"]["ok"] is True
    assert [f["key"] for f in record["figures"]] == ["load.sheets", "draw"]


def test_two_runs_in_one_second_are_both_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("BENCH_RESULTS", str(tmp_path))
    fine = types.SimpleNamespace(run=lambda session, argv: [], TINY=[])
    monkeypatch.setattr(runner, "BENCHES", {"fine": fine})
    frozen = runner.dt.datetime(2026, 11, 23, 12, 0, 0, tzinfo=runner.dt.UTC)
    monkeypatch.setattr(
        runner.dt, "datetime", types.SimpleNamespace(now=lambda tz: frozen)
    )
    assert runner.run(["fine"], [], tiny=True) == 0
    assert runner.run(["fine"], [], tiny=True) == 0
    names = sorted(p.name for p in tmp_path.glob("*.json"))
    assert len(names) == 2 and names[1].endswith("20261123T120000Z.json")
    assert names[0].endswith("20261123T120000Z-2.json")


def test_a_figure_without_a_goal_fails_its_benchmark(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BENCH_RESULTS", str(tmp_path))
    stray = types.SimpleNamespace(
        run=lambda session, argv: [core.Figure("nowhere", "stray", 1.0, "ms")], TINY=[]
    )
    monkeypatch.setattr(runner, "BENCHES", {"stray": stray})
    assert runner.run(["stray"], [], tiny=True) == 1
    assert "no goal in performance.md for nowhere" in capsys.readouterr().out
