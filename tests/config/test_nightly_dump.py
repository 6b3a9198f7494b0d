"""The nightly dump (issue 53; docs/backups.md, "The nightly dump").

deploy/nightly.py's rules, alone: the next run time (UTC, the same time every day
across midnight, month and year ends and the summer-time changes of local clocks), a
missed night taken at once, the prune (only the dumper's own names, and of those only
the nightly ones past DUMP_NIGHTLY_KEPT, the before-migrate ones past
DUMP_BEFORE_MIGRATE_DAYS but the newest, and a partial file a day old), the health
check's 26 hours, and the schedule's loop on a clock of the test's own (a failed dump
tried again 15 minutes later, never past the next night's time).

Then deploy/nightly-dump itself, as compose and systemd run it: `--once` against the
test's own database (on the PostgreSQL pass a pg_dump that `pg_restore --list` reads,
on SQLite a copy of the file), pruning a folder of old dumps; the forever mode taking
last night's missing dump at once, then stopped by SIGTERM (a container's stop) with
nothing left half-written; `--check` before and after. And the systemd units: the dump's
user, settings and hardening are the web's, its timer keeps DUMP_AT's default, and
`systemd-analyze verify` takes both.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import re
import secrets
import shutil
import signal
import sqlite3
import subprocess
import sys
import time as clock
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from hypothesis import given
from hypothesis import strategies as st

from tests.factories import TournamentFactory

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "deploy" / "nightly-dump"


def _load_nightly():
    spec = importlib.util.spec_from_file_location(
        "deploy_nightly", ROOT / "deploy" / "nightly.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


nightly = _load_nightly()
AT = nightly.run_at("03:30")


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def stamp(moment: datetime) -> str:
    return f"{moment:%Y%m%dT%H%M%SZ}"


# ---- the run time ----------------------------------------------------------------


@pytest.mark.parametrize(
    "after, at, expected",
    [
        ("2026-05-10 01:00:00", "03:30", "2026-05-10 03:30:00"),  # later today
        ("2026-05-10 03:29:59", "03:30", "2026-05-10 03:30:00"),
        ("2026-05-10 03:30:00", "03:30", "2026-05-11 03:30:00"),  # strictly after
        ("2026-05-10 03:31:00", "03:30", "2026-05-11 03:30:00"),
        ("2026-05-10 23:59:59", "00:00", "2026-05-11 00:00:00"),  # across midnight
        ("2026-05-11 00:00:00", "00:00", "2026-05-12 00:00:00"),
        ("2026-05-10 00:00:01", "23:59", "2026-05-10 23:59:00"),
        ("2026-05-10 23:59:30", "23:59", "2026-05-11 23:59:00"),
        ("2026-01-31 12:00:00", "03:30", "2026-02-01 03:30:00"),  # month's end
        ("2026-12-31 22:00:00", "03:30", "2027-01-01 03:30:00"),  # year's end
        ("2028-02-28 04:00:00", "03:30", "2028-02-29 03:30:00"),  # leap day
    ],
)
def test_the_next_run_is_the_first_at_time_strictly_after(after, at, expected):
    assert nightly.next_run(utc(after), nightly.run_at(at)) == utc(expected)


def test_the_run_time_is_utc_whatever_zone_the_moment_is_given_in():
    # 09:00 in Kolkata is 03:30 UTC: the run is that very moment's next day.
    kolkata = datetime(2026, 5, 10, 9, 0, tzinfo=ZoneInfo("Asia/Kolkata"))
    assert nightly.next_run(kolkata, AT) == utc("2026-05-11 03:30:00")
    assert nightly.next_run(kolkata - timedelta(seconds=1), AT) == kolkata


@pytest.mark.parametrize("start", ["2026-03-25 12:00:00", "2026-10-20 12:00:00"])
def test_the_runs_are_a_day_apart_across_the_summer_time_changes(start):
    """Europe and the USA change their clocks in late March and in October-November:
    the schedule is UTC's, so every run is 24 hours after the one before (a local
    03:30 would come twice one night or not at all another)."""
    runs = [nightly.next_run(utc(start), AT)]
    for _ in range(30):
        runs.append(nightly.next_run(runs[-1], AT))
    assert {later - earlier for earlier, later in itertools.pairwise(runs)} == {
        timedelta(days=1)
    }
    assert {run.timetz() for run in runs} == {AT}


@given(
    after=st.datetimes(
        min_value=datetime(2000, 1, 1),
        max_value=datetime(2100, 1, 1),
        timezones=st.sampled_from(
            [UTC, ZoneInfo("Asia/Kolkata"), ZoneInfo("America/New_York")]
        ),
    ),
    hour=st.integers(0, 23),
    minute=st.integers(0, 59),
)
def test_the_next_run_and_the_last_run_bracket_any_moment(after, hour, minute):
    at = nightly.run_at(f"{hour:02}:{minute:02}")
    following, latest = nightly.next_run(after, at), nightly.last_run(after, at)
    # A day of 24 hours: in New York's zone `after + 1 day` is 23 or 25 hours.
    now = after.astimezone(UTC)
    assert latest <= now < following <= now + timedelta(days=1)
    assert following - latest <= timedelta(days=1)
    for run in (following, latest):
        assert run.utcoffset() == timedelta(0)
        assert (run.hour, run.minute, run.second, run.microsecond) == (
            hour,
            minute,
            0,
            0,
        )


@pytest.mark.parametrize("text", ["03:30", "00:00", "23:59", " 21:45 "])
def test_dump_at_reads_hours_and_minutes(text):
    at = nightly.run_at(text)
    assert f"{at:%H:%M}" == text.strip()
    assert at.tzinfo is UTC


@pytest.mark.parametrize("text", ["3:30", "24:00", "03:60", "0330", "", "03:30 UTC"])
def test_dump_at_names_itself_and_the_form_when_refused(text):
    with pytest.raises(ValueError, match=r"DUMP_AT must be a time of day as HH:MM"):
        nightly.run_at(text)


def test_the_counts_are_whole_numbers_from_one():
    assert nightly.whole_number("DUMP_NIGHTLY_KEPT", None, 14) == 14
    assert nightly.whole_number("DUMP_NIGHTLY_KEPT", "", 14) == 14
    assert nightly.whole_number("DUMP_NIGHTLY_KEPT", " 7 ", 14) == 7
    for text in ("0", "-3", "2.5", "many"):
        with pytest.raises(ValueError, match=r"DUMP_NIGHTLY_KEPT must be a whole"):
            nightly.whole_number("DUMP_NIGHTLY_KEPT", text, 14)


def test_a_night_is_missed_when_no_nightly_dump_follows_the_latest_run_time():
    now = utc("2026-05-10 12:00:00")
    assert nightly.missed(None, now, AT)  # just installed
    assert nightly.missed(utc("2026-05-10 03:29:59"), now, AT)
    assert not nightly.missed(utc("2026-05-10 03:30:00"), now, AT)
    # Before today's time, yesterday's was the last that was due.
    early = utc("2026-05-10 02:00:00")
    assert not nightly.missed(utc("2026-05-09 03:30:07"), early, AT)
    assert nightly.missed(utc("2026-05-08 03:30:07"), early, AT)


# ---- what is kept --------------------------------------------------------------

NOW = utc("2026-05-10 03:31:00")


def _nightly_names(count: int) -> list[str]:
    return [
        f"nightly-{stamp(utc('2026-05-10 03:30:02') - timedelta(days=n))}.dump"
        for n in range(count)
    ]


def test_the_newest_nightly_dumps_are_kept():
    names = _nightly_names(20)  # newest first
    pruned = nightly.dumps_to_prune(names, now=NOW, nightly_kept=14)
    assert pruned == sorted(names[14:])  # oldest first
    assert nightly.dumps_to_prune(names[:14], now=NOW, nightly_kept=14) == []
    assert nightly.dumps_to_prune(names, now=NOW, nightly_kept=1) == sorted(names[1:])


def test_before_migrate_dumps_are_kept_their_days_and_the_newest_always():
    names = [
        f"before-migrate-{stamp(NOW - timedelta(days=days))}.dump"
        for days in (400, 200, 31, 29, 1)
    ]
    assert nightly.dumps_to_prune(names, now=NOW, before_migrate_days=30) == [
        names[0],
        names[1],
        names[2],
    ]
    # The last upgrade long ago: its dump stays, the one before it goes.
    assert nightly.dumps_to_prune(names[:2], now=NOW, before_migrate_days=30) == [
        names[0]
    ]


def test_only_the_dumpers_own_nightly_and_before_migrate_names_are_pruned():
    old = NOW - timedelta(days=3650)
    kept = [
        f"by-hand-{stamp(old)}.dump",
        f"before-upgrade-{stamp(old)}.dump",
        f"nightly-test-{stamp(old)}.dump",  # a person's reason, not the schedule's
        f"before-migrate-again-{stamp(old)}.sqlite3",
        "nightly-latest.dump",
        "nightly-20261399T000000Z.dump",  # the shape of a time, not a time
        f"nightly-{stamp(old)}.dump.bak",
        f"nightly-{stamp(old)}.tar",
        f"NIGHTLY-{stamp(old)}.dump",
        "notes.txt",
        "restore-drill.dump",
        f"nightly-{stamp(NOW - timedelta(hours=2))}.dump.partial",  # may be under way
    ]
    stale = f"nightly-{stamp(NOW - timedelta(hours=25))}.dump.partial"
    stale_migrate = f"before-migrate-{stamp(old)}.sqlite3.partial"
    names = [*kept, stale, stale_migrate, *_nightly_names(1)]
    assert nightly.dumps_to_prune(names, now=NOW, nightly_kept=1) == [
        stale_migrate,
        stale,
    ]


def test_a_partial_dump_counts_as_no_nightly_dump():
    partial = f"nightly-{stamp(NOW)}.dump.partial"
    assert nightly.newest_nightly([partial]) is None
    names = [*_nightly_names(3), partial]
    assert nightly.newest_nightly(names) == utc("2026-05-10 03:30:02")
    # Nor does it take a kept nightly's place.
    assert nightly.dumps_to_prune(names, now=NOW, nightly_kept=3) == []


def test_each_removal_says_why():
    said = {
        name: nightly.why_pruned(
            nightly.dump_named(name), nightly_kept=14, before_migrate_days=30
        )
        for name in (
            "nightly-20260101T033000Z.dump",
            "before-migrate-20260101T033000Z.dump",
            "nightly-20260101T033000Z.dump.partial",
        )
    }
    assert list(said.values()) == [
        "older than the newest 14 nightly dumps (DUMP_NIGHTLY_KEPT)",
        "a before-migrate dump older than 30 days, not the newest "
        "(DUMP_BEFORE_MIGRATE_DAYS)",
        "a dump that never finished",
    ]


def test_healthy_while_the_newest_nightly_dump_is_younger_than_26_hours():
    taken = utc("2026-05-09 03:30:05")
    names = [f"nightly-{stamp(taken)}.dump", f"by-hand-{stamp(NOW)}.dump"]
    assert nightly.health(names, taken + timedelta(hours=25, minutes=59)) is None
    assert nightly.health(names, taken + timedelta(hours=26)) == (
        "the newest nightly dump is 26 hours old (taken 2026-05-09 03:30 UTC)"
    )
    assert nightly.health(names[1:], NOW) == "no nightly dump yet"


# ---- the schedule, on the test's clock -------------------------------------------


class Clock:
    """A clock that moves only when slept on, or when a dump takes its time."""

    def __init__(self, start: str) -> None:
        self.moment = utc(start)
        self.naps: list[float] = []

    def now(self) -> datetime:
        return self.moment

    def sleep(self, seconds: float) -> None:
        self.naps.append(seconds)
        self.moment += timedelta(seconds=seconds)


class Enough(Exception):
    pass


def _schedule(clock_: Clock, results: list[bool], newest=None, lasts=timedelta(0)):
    """The moments the schedule starts a dump at, each giving the next of
    `results`, until they run out."""
    started: list[datetime] = []
    left = list(results)

    def dump() -> bool:
        if not left:
            raise Enough
        started.append(clock_.now())
        clock_.moment += lasts
        return left.pop(0)

    with pytest.raises(Enough):
        nightly.run_nightly(
            at=AT,
            now=clock_.now,
            sleep=clock_.sleep,
            dump=dump,
            newest=lambda: newest,
        )
    return started


def test_a_missed_night_is_dumped_at_once_then_every_night_at_its_time():
    clock_ = Clock("2026-05-10 12:00:00")
    assert _schedule(clock_, [True, True, True]) == [
        utc("2026-05-10 12:00:00"),
        utc("2026-05-11 03:30:00"),
        utc("2026-05-12 03:30:00"),
    ]
    assert max(clock_.naps) <= nightly.NAP_SECONDS  # it looks at the clock often


def test_last_nights_dump_there_the_first_is_tonight():
    clock_ = Clock("2026-05-10 12:00:00")
    started = _schedule(clock_, [True], newest=utc("2026-05-10 03:30:01"))
    assert started == [utc("2026-05-11 03:30:00")]


def test_a_dump_that_takes_its_time_does_not_move_the_next_night():
    clock_ = Clock("2026-05-10 03:00:00")
    taken = _schedule(
        clock_,
        [True, True],
        newest=utc("2026-05-09 03:30:01"),
        lasts=timedelta(hours=2),
    )
    assert taken == [utc("2026-05-10 03:30:00"), utc("2026-05-11 03:30:00")]


def test_a_failed_dump_is_tried_again_soon_never_past_the_next_night():
    assert timedelta(minutes=15) == nightly.RETRY_AFTER
    clock_ = Clock("2026-05-10 03:00:00")
    newest = utc("2026-05-09 03:30:01")
    # Failing for a day (the database is down): every 15 minutes, and the next
    # night's time is one of them.
    started = _schedule(clock_, [False] * 97 + [True, True], newest=newest)
    assert started[:3] == [
        utc("2026-05-10 03:30:00"),
        utc("2026-05-10 03:45:00"),
        utc("2026-05-10 04:00:00"),
    ]
    assert started[95:] == [
        utc("2026-05-11 03:15:00"),
        utc("2026-05-11 03:30:00"),
        utc("2026-05-11 03:45:00"),  # the 97th failed: retried; this one succeeded
        utc("2026-05-12 03:30:00"),
    ]
    # A missed night's dump that fails at 03:20 after 10 minutes: the next is the
    # night's own at 03:30, not 03:35; once it succeeds, the next night's.
    clock_ = Clock("2026-05-11 03:10:00")
    started = _schedule(
        clock_,
        [False, True, True],
        newest=utc("2026-05-09 03:30:01"),
        lasts=timedelta(minutes=10),
    )
    assert started == [
        utc("2026-05-11 03:10:00"),
        utc("2026-05-11 03:30:00"),
        utc("2026-05-12 03:30:00"),
    ]


# ---- deploy/nightly-dump, run ----------------------------------------------------


def _env(tmp_path: Path, database_url: str, **more: str) -> dict[str, str]:
    """A production process's environment, as the units and compose give it."""
    inherited = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("DJANGO_", "DATABASE_", "CELERY_", "DUMP_", "PG"))
        and name not in ("LOG_FORMAT", "CACHE_URL", "PYTEST_XDIST_WORKER")
    }
    return inherited | {
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
        "DJANGO_SETTINGS_MODULE": "tournament.config.settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "FIFTYSIX_VAR_DIR": str(tmp_path / "var"),
        "DUMP_DIR": str(tmp_path / "dumps"),
        "DATABASE_URL": database_url,
        **more,
    }


def _database_url() -> str:
    """The test's own database, as DATABASE_URL names it."""
    database = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{database['NAME']}"
    password = f":{database['PASSWORD']}" if database.get("PASSWORD") else ""
    host = database.get("HOST") or "127.0.0.1"
    return (
        f"postgres://{database['USER']}{password}@{host}:{database.get('PORT') or 5432}"
        f"/{database['NAME']}"
    )


def _run(env: dict, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(SCRIPT), *arguments],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.django_db(transaction=True)
def test_once_dumps_the_database_and_prunes_the_old_dumps(tmp_path):
    TournamentFactory(slug="nightly-cup")
    env = _env(tmp_path, _database_url(), DUMP_NIGHTLY_KEPT="3")
    folder = tmp_path / "dumps"
    folder.mkdir()
    long_ago = datetime.now(UTC) - timedelta(days=100)
    old = [f"nightly-{stamp(long_ago + timedelta(days=n))}.dump" for n in range(4)]
    others = [
        f"before-migrate-{stamp(long_ago)}.dump",  # the newest before-migrate one
        f"before-upgrade-{stamp(long_ago)}.dump",
        "notes.txt",
    ]
    for name in old + others:
        (folder / name).write_bytes(b"an old dump")
    assert _run(env, "--check").returncode == 1  # 96 days old

    done = _run(env, "--once")
    assert done.returncode == 0, done.stderr
    dumps = sorted(folder.glob("nightly-*"))
    assert [path.name for path in dumps[:2]] == old[2:]  # the newest 3 of 5 kept
    made = dumps[2]
    assert made.name not in old
    assert made.stat().st_mode & 0o777 == 0o600
    assert {path.name for path in folder.iterdir()} == {*old[2:], made.name, *others}
    for name in old[:2]:
        assert f"removed {folder / name}: older than the newest 3" in done.stderr
    assert _run(env, "--check").returncode == 0

    if connection.vendor == "postgresql":
        assert made.suffix == ".dump"
        listed = subprocess.run(
            ["pg_restore", "--list", str(made)],  # noqa: S607
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert re.search(r"TABLE DATA public tournament_tournament ", listed)
    else:
        assert made.suffix == ".sqlite3"
        copy = sqlite3.connect(made)
        try:
            slugs = copy.execute("SELECT slug FROM tournament_tournament").fetchall()
        finally:
            copy.close()
        assert slugs == [("nightly-cup",)]


def test_a_failed_dump_removes_nothing_and_says_so(tmp_path):
    env = _env(tmp_path, "postgres://nobody@127.0.0.1:1/nothing", DUMP_NIGHTLY_KEPT="1")
    folder = tmp_path / "dumps"
    folder.mkdir()
    old = [f"nightly-2020010{n}T033000Z.dump" for n in range(1, 4)]
    for name in old:
        (folder / name).write_bytes(b"an old dump")
    failed = _run(env, "--once")
    assert failed.returncode == 1
    assert "dump: failed, nothing was changed" in failed.stderr
    assert sorted(path.name for path in folder.iterdir()) == old


def test_a_setting_that_is_wrong_stops_it_before_anything(tmp_path):
    env = _env(tmp_path, "sqlite:///nothing.sqlite3", DUMP_AT="3.30")
    said = _run(env)
    assert said.returncode == 2
    assert "DUMP_AT must be a time of day as HH:MM" in said.stderr
    env |= {"DUMP_AT": "03:30", "DUMP_BEFORE_MIGRATE_DAYS": "a month"}
    said = _run(env, "--once")
    assert said.returncode == 2
    assert "DUMP_BEFORE_MIGRATE_DAYS must be a whole number" in said.stderr
    assert not (tmp_path / "dumps").exists()


def _until(seconds: float, done) -> None:
    deadline = clock.monotonic() + seconds
    while not done():
        assert clock.monotonic() < deadline
        clock.sleep(0.1)


def test_forever_takes_the_missed_night_at_once_and_stops_on_sigterm(tmp_path):
    """As compose's `dumps` service runs it: no nightly dump yet, so one at once; then
    it waits for DUMP_AT (set twelve hours from now) and a stop ends it cleanly."""
    database = tmp_path / "site.sqlite3"
    with sqlite3.connect(database) as made:
        made.execute("CREATE TABLE deal (value integer)")
    made.close()
    at = datetime.now(UTC) + timedelta(hours=12)
    env = _env(tmp_path, f"sqlite:///{database}", DUMP_AT=f"{at:%H:%M}")
    folder = tmp_path / "dumps"
    assert _run(env, "--check").stderr.strip() == f"no nightly dump yet in {folder}"

    def start() -> tuple[subprocess.Popen, Path]:
        log = (tmp_path / f"forever-{secrets.token_hex(4)}.log").open("w")
        process = subprocess.Popen(
            [str(SCRIPT)], cwd=ROOT, env=env, stdout=log, stderr=log
        )
        return process, Path(log.name)

    process, log = start()
    try:
        _until(60, lambda: "the next nightly dump at" in log.read_text())
        said = log.read_text()
        assert "no nightly dump since" in said
        assert f"the next nightly dump at {at:%Y-%m-%d %H:%M} UTC" in said
        (made,) = folder.iterdir()
        assert made.name.startswith("nightly-") and made.suffix == ".sqlite3"
        assert _run(env, "--check").returncode == 0
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
        assert "the nightly dump's schedule stopped (Terminated)" in log.read_text()

        # Started again the same day: last night's is there, nothing to catch up.
        process, log = start()
        _until(60, lambda: "the next nightly dump at" in log.read_text())
        assert "no nightly dump since" not in log.read_text()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
        assert [path.name for path in folder.iterdir()] == [made.name]
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


# ---- the systemd units -------------------------------------------------------------

UNITS = ROOT / "deploy" / "systemd"
WEB_ONLY = {"WEB_BIND", "TRUSTED_PROXIES", "MIGRATE_ON_START"}


def _lines(name: str) -> dict[str, list[str]]:
    """A unit's settings, `Key=value` lines by section, comments left out."""
    sections: dict[str, list[str]] = {}
    current = ""
    for line in (UNITS / name).read_text().splitlines():
        if line.startswith("["):
            current = line.strip("[]")
        elif line.strip() and not line.startswith("#"):
            sections.setdefault(current, []).append(line)
    return sections


def test_the_dump_runs_as_the_web_does_with_its_settings_and_hardening():
    web, dump = _lines("fiftysix-web.service"), _lines("fiftysix-dump.service")
    shared = [
        line
        for line in web["Service"]
        if line.split("=", 1)[0]
        in {"User", "Group", "WorkingDirectory", "EnvironmentFile", "StateDirectory"}
        or line.startswith(("Environment=", "StateDirectoryMode=", "UMask="))
        or line.split("=", 1)[1] == "yes"  # NoNewPrivileges, Protect…, Restrict…
    ]
    shared = [
        line
        for line in shared
        if line.split("=")[1] not in WEB_ONLY  # Environment=X=
    ]
    assert len(shared) >= 17
    assert [line for line in dump["Service"] if line in shared] == shared
    assert "Type=oneshot" in dump["Service"]
    assert "ExecStart=/srv/fiftysix/deploy/nightly-dump --once" in dump["Service"]
    assert "Install" not in dump  # its timer starts it
    assert os.access(SCRIPT, os.X_OK)


def test_the_timer_starts_it_at_dump_ats_default_every_night():
    timer = _lines("fiftysix-dump.timer")
    assert f"OnCalendar=*-*-* {nightly.DEFAULT_AT}:00 UTC" in timer["Timer"]
    assert "Persistent=true" in timer["Timer"]
    assert timer["Install"] == ["WantedBy=timers.target"]


def test_systemd_takes_the_units_and_the_timer(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if not analyze:
        pytest.skip("no systemd here: .ci/container verifies the units where it runs")
    for unit in [*UNITS.glob("*.service"), *UNITS.glob("*.timer")]:
        text = unit.read_text().replace("/srv/fiftysix", str(ROOT))
        (tmp_path / unit.name).write_text(text)
    units = sorted(str(path) for path in tmp_path.iterdir())
    assert any(unit.endswith("fiftysix-dump.timer") for unit in units)
    said = subprocess.run([analyze, "verify", *units], capture_output=True, text=True)
    assert (said.returncode, said.stderr) == (0, "")


def test_the_docs_give_the_defaults():
    backups = (ROOT / "docs/backups.md").read_text()
    for said in (
        f"`DUMP_AT` ({nightly.DEFAULT_AT} UTC)",
        f"`DUMP_NIGHTLY_KEPT` ({nightly.DEFAULT_NIGHTLY_KEPT})",
        f"`DUMP_BEFORE_MIGRATE_DAYS` ({nightly.DEFAULT_BEFORE_MIGRATE_DAYS})",
        "systemctl enable --now fiftysix-dump.timer",
    ):
        assert said in backups, said
