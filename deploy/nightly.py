"""When the nightly dump runs, and which dumps it keeps (docs/backups.md, "The nightly
dump"). deploy/nightly-dump gives it the clock, the dump folder's names and the dump
itself; tests/config/test_nightly_dump.py gives it its own.

What it computes: the next time of the nightly dump after a moment (the same time of
day every day, in UTC: no summer time, so no night is skipped or dumped twice), whether
last night's was missed (no nightly dump since the latest such time: the dump is taken
at once, as systemd's Persistent=true does), the dumps to remove after a nightly one,
and whether the newest nightly dump is recent enough for compose's health check.

What it does not: read a folder, delete a file, call pg_dump, or read the environment
(deploy/nightly-dump does, and deploy/dump.py writes the dumps). Standard library only.

Vocabulary: a *dump* is a file deploy/dump.py wrote, named `<reason>-<UTC time>.dump`
(PostgreSQL's custom format) or `.sqlite3`, and `….partial` while it is written; its
*reason* says who took it: `nightly` (this schedule), `before-migrate` (deploy/migrate),
anything else (a person: `by-hand`, `before-upgrade`, …). Its *time* is the one in its
name, when it was started, never the file's own (a copy changes that). The *run time*
(`DUMP_AT`) is a time of day, hours and minutes, in UTC.

What is kept (docs/backups.md):
- the newest `DUMP_NIGHTLY_KEPT` (14) nightly dumps;
- the before-migrate dumps of the last `DUMP_BEFORE_MIGRATE_DAYS` (30) days, and the
  newest one whatever its age (the schema before the last upgrade);
- every dump a person took, whatever its reason: only they know why;
- any file whose name is not a dump's (the dumper did not write it);
- a `.partial` file for a day: after that its dump was killed (the machine stopped
  mid-dump) and it is no dump at all.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta

NIGHTLY = "nightly"
BEFORE_MIGRATE = "before-migrate"
DEFAULT_AT = "03:30"
DEFAULT_NIGHTLY_KEPT = 14
DEFAULT_BEFORE_MIGRATE_DAYS = 30
# A day and the two hours a dump may take: older, a night was missed.
HEALTHY_FOR = timedelta(hours=26)
# A failed dump (the database down, the disk full) is tried again this much later,
# until one succeeds or the next night's time comes first.
RETRY_AFTER = timedelta(minutes=15)
PARTIAL_KEPT = timedelta(days=1)
# How long the schedule sleeps at most before it looks at the clock again: a clock
# set forward or back (or a machine paused) moves the dump by at most this much.
NAP_SECONDS = 60.0

# deploy/dump.py's names: `re.sub(r"[^A-Za-z0-9_-]+", "-", reason)`, then the time.
DUMP_NAME = re.compile(
    r"(?P<reason>[A-Za-z0-9_-]+)-(?P<stamp>\d{8}T\d{6}Z)"
    r"\.(?:dump|sqlite3)(?P<partial>\.partial)?"
)
RUN_AT = re.compile(r"(?P<hour>[01]\d|2[0-3]):(?P<minute>[0-5]\d)")

log = logging.getLogger("fiftysix.dump")


@dataclass(frozen=True)
class Dump:
    """One file of the dump folder that deploy/dump.py wrote (or is writing)."""

    name: str
    reason: str
    taken: datetime  # UTC, to the second: when the dump started
    partial: bool


def dump_named(name: str) -> Dump | None:
    """The dump a file's name describes; None for a file the dumper did not write."""
    found = DUMP_NAME.fullmatch(name)
    if not found:
        return None
    try:
        taken = datetime.strptime(found["stamp"], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
    except ValueError:  # 20261399T…: the shape of a time, not a time
        return None
    return Dump(name, found["reason"], taken, bool(found["partial"]))


def run_at(text: str) -> time:
    """DUMP_AT's time of day: `HH:MM` on the 24-hour clock, in UTC."""
    found = RUN_AT.fullmatch(text.strip())
    if not found:
        raise ValueError(
            f"DUMP_AT must be a time of day as HH:MM on the 24-hour clock, in UTC "
            f"(03:30, 21:45), not {text!r}"
        )
    return time(int(found["hour"]), int(found["minute"]), tzinfo=UTC)


def whole_number(name: str, text: str | None, default: int) -> int:
    """A count the environment sets (DUMP_NIGHTLY_KEPT, DUMP_BEFORE_MIGRATE_DAYS): a
    whole number, 1 or more; unset or empty, the default."""
    if text is None or not text.strip():
        return default
    if not text.strip().isdigit() or int(text) < 1:
        raise ValueError(f"{name} must be a whole number, 1 or more, not {text!r}")
    return int(text)


def _at_on(day: datetime, at: time) -> datetime:
    return datetime.combine(day.date(), at.replace(tzinfo=None), tzinfo=UTC)


def next_run(after: datetime, at: time) -> datetime:
    """The first moment strictly after `after` whose UTC time of day is `at`: the same
    day's if it is still to come, else the next day's (across midnight, month and year
    ends alike)."""
    after = after.astimezone(UTC)
    today = _at_on(after, at)
    return today if today > after else _at_on(after + timedelta(days=1), at)


def last_run(now: datetime, at: time) -> datetime:
    """The latest moment at or before `now` whose UTC time of day is `at`."""
    now = now.astimezone(UTC)
    today = _at_on(now, at)
    return today if today <= now else _at_on(now - timedelta(days=1), at)


def newest_nightly(names: Iterable[str]) -> datetime | None:
    """The time of the newest complete nightly dump among a folder's names."""
    times = [
        dump.taken
        for dump in map(dump_named, names)
        if dump and dump.reason == NIGHTLY and not dump.partial
    ]
    return max(times, default=None)


def missed(newest: datetime | None, now: datetime, at: time) -> bool:
    """Whether the latest run time passed without a nightly dump taken at or after it
    (the site was stopped then, or has just been installed)."""
    return newest is None or newest < last_run(now, at)


def dumps_to_prune(
    names: Iterable[str],
    *,
    now: datetime,
    nightly_kept: int = DEFAULT_NIGHTLY_KEPT,
    before_migrate_days: int = DEFAULT_BEFORE_MIGRATE_DAYS,
) -> list[str]:
    """The names of the dumps the nightly dump removes after its own (what is kept: the
    module's docstring), oldest first. Only names of the dumper's own shape are ever
    given back."""
    if nightly_kept < 1 or before_migrate_days < 1:
        raise AssertionError("whole_number() lets through 1 or more only")
    dumps = sorted(
        (dump for dump in map(dump_named, names) if dump),
        key=lambda dump: (dump.taken, dump.name),
    )
    complete = [dump for dump in dumps if not dump.partial]
    nightly = [dump for dump in complete if dump.reason == NIGHTLY]
    migrate = [dump for dump in complete if dump.reason == BEFORE_MIGRATE]
    oldest_migrate = now - timedelta(days=before_migrate_days)
    pruned = {dump.name for dump in nightly[:-nightly_kept]}
    pruned |= {dump.name for dump in migrate[:-1] if dump.taken < oldest_migrate}
    pruned |= {
        dump.name for dump in dumps if dump.partial and dump.taken < now - PARTIAL_KEPT
    }
    return [dump.name for dump in dumps if dump.name in pruned]


def why_pruned(dump: Dump, *, nightly_kept: int, before_migrate_days: int) -> str:
    """What the log says of a dump dumps_to_prune gave back."""
    if dump.partial:
        return "a dump that never finished"
    if dump.reason == NIGHTLY:
        return f"older than the newest {nightly_kept} nightly dumps (DUMP_NIGHTLY_KEPT)"
    return (
        f"a before-migrate dump older than {before_migrate_days} days, not the newest "
        f"(DUMP_BEFORE_MIGRATE_DAYS)"
    )


def health(names: Iterable[str], now: datetime) -> str | None:
    """None while the newest nightly dump is younger than HEALTHY_FOR; else what is
    wrong, for compose's health check."""
    newest = newest_nightly(names)
    if newest is None:
        return "no nightly dump yet"
    age = now - newest
    if age < HEALTHY_FOR:
        return None
    hours = int(age.total_seconds() // 3600)
    return f"the newest nightly dump is {hours} hours old (taken {_said(newest)})"


def run_nightly(
    *,
    at: time,
    now: Callable[[], datetime],
    sleep: Callable[[float], object],
    dump: Callable[[], bool],
    newest: Callable[[], datetime | None],
) -> None:
    """Forever: a nightly dump at `at` each day (at once when last night's was
    missed), each failed one tried again RETRY_AFTER later until one succeeds or the
    next night's time comes. `dump` takes one (and prunes) and says whether it
    succeeded; `newest` reads the folder's newest nightly dump."""
    started = now()
    due = next_run(started, at)
    if missed(newest(), started, at):
        due, since = started, last_run(started, at)
        log.info("dump: no nightly dump since %s; one now", _said(since))
    else:
        log.info("dump: the next nightly dump at %s", _said(due))
    while True:
        while (left := (due - now()).total_seconds()) > 0:
            sleep(min(left, NAP_SECONDS))
        done = dump()
        after = now()
        due = next_run(after, at)
        if done:
            log.info("dump: the next nightly dump at %s", _said(due))
        else:
            due = min(due, after + RETRY_AFTER)
            log.warning("dump: the nightly dump failed; tried again at %s", _said(due))


def _said(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M} UTC"
