"""Backups written by an earlier release, brought up to this one (docs/backups.md,
"Across releases").

A backup's header records the migrations its site was at: `migrations`, the newest
applied migration of each app of archive.APPS. A restore or an import of a file at
older migrations carries its rows through the upgrade of every migration it lacks, in
the order the migrations ran, and then loads them as it loads a file of its own
migrations. Each app lists the upgrades of its own migrations in its module
`backup_upgrades` (found as the admin finds `admin` modules): one for every migration
since release 0.3.0, the oldest release whose files are brought forward (`OLDEST`;
the releases and their migrations are tournament/ops/releases.py's).
An upgrade is made of steps:

- `Add`: a column the migration added, with the value the migration gave the rows
  there were then. Not the model's default for a new row: `scoring.0014` gave edition
  1 to every sheet there was (and then 2 to those without a penalty), while a sheet
  made since gets 2.
- `Drop`, `Rename`: a column it removed or renamed.
- `Move`: a model it moved to another app, its table kept (state only): the file's
  rows of the old label are the new label's.
- `Replay`: its data migration, replayed on the file's rows, in order with the other
  steps.
- `Loaded`: what it filled that the writes' own SQL counts from other rows
  (`scoring.0011`'s contract tallies), or what the first `migrate` after it found for
  the whole site (people, ratings), done on the rows once they are loaded. It runs
  after every other step, so it may fill only what no later step reads.
- no step, with the reason, where it changes no row a backup holds.

A file of migrations this code does not know (a newer release's, or other code's), of
migrations this database has not applied yet, from before 0.3.0, or with a column no
upgrade accounts for is refused, saying which release wrote it and which this site
runs. tests/tournament/services/test_backup_upgrades.py walks the migration graph:
a migration without an upgrade, or an upgrade that does not make today's columns from
those each past state had, fails it.

Vocabulary: a file's *state* is the set of migrations its site had applied; *pending*
are the migrations this site has applied and the file's had not; *brought forward* is
a file carried through their upgrades.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db.migrations.graph import MigrationGraph
from django.db.migrations.loader import MigrationLoader
from django.utils.module_loading import autodiscover_modules

from tournament.ops import releases

from ..domain.errors import Words, filled, marked
from .archive import (
    APPS,
    PEOPLE,
    PEOPLE_COLUMNS,
    Archive,
    BackupRefused,
    columns_of,
    migrations,
    model_of,
    release,
)

Node = tuple[str, str]  # (app label, migration name)

# Django's auth and DRF's authtoken at every release so far (Django 5.2, DRF 3.15):
# tournament/ops/releases.py names each release's migrations of the project's own apps.
# A release that ships a newer one names it here, and its upgrade (with the
# tournament app's, tournament/backup_upgrades.py).
THIRD_PARTY = {
    "auth": "0012_alter_user_first_name_max_length",
    "authtoken": "0004_alter_tokenproxy_options",
}
# The migrations each release shipped (the newest of each app of APPS), oldest first:
# a file at one of these states was written by that release. The first, 0.3.0, is
# the oldest whose files are brought forward, as it is the oldest an upgrade starts
# from (docs/releases.md).
RELEASES: dict[str, dict[str, str]] = {
    shipped.version: {**THIRD_PARTY, **shipped.migrations}
    for shipped in releases.RELEASES
}
OLDEST = next(iter(RELEASES))


# The rows of a file on their way forward
# ----------------------------------------------------------------------------------


class Unaccounted(Exception):
    """A step found a table without a column it reads: the file is not what the
    release it claims wrote (said as a refusal by the caller)."""

    def __init__(self, label: str) -> None:
        super().__init__(label)
        self.label = label


class Tables:
    """The rows of a file being brought forward: for each table (`app.model`) its
    columns, named by attname (`tournament_id`), and its rows, lists in that order.
    It holds the archive's own dict, changed in place. A table the file does not
    hold has no rows: a step on it does nothing."""

    def __init__(self, tables: dict[str, tuple[list[str], list[list]]]) -> None:
        self.tables = tables

    def columns(self, label: str) -> list[str]:
        return self.tables.get(label, ([], []))[0]

    def _at(self, label: str, column: str) -> int:
        try:
            return self.columns(label).index(column)
        except ValueError:
            raise Unaccounted(label) from None

    def values(self, label: str, column: str) -> list:
        """The column's values, row by row (none where the file has no such table)."""
        if label not in self.tables:
            return []
        at = self._at(label, column)
        return [row[at] for row in self.tables[label][1]]

    def values_set(self, label: str, column: str, values: Sequence) -> None:
        if label not in self.tables:
            return
        at = self._at(label, column)
        for row, value in zip(self.tables[label][1], values, strict=True):
            row[at] = value

    def add(self, label: str, column: str, value: Any) -> None:
        if label not in self.tables:
            return
        columns, rows = self.tables[label]
        if column in columns:
            raise Unaccounted(label)  # the file has it already: not that release's
        columns.append(column)
        mutable = isinstance(value, list | dict)
        for row in rows:
            row.append(copy.deepcopy(value) if mutable else value)

    def drop(self, label: str, *names: str) -> None:
        """The first of `names` the table has (its attname, or its field's name as
        a whole site's file writes a reference) goes."""
        if label not in self.tables:
            return
        columns, rows = self.tables[label]
        at = next((columns.index(n) for n in names if n in columns), None)
        if at is None:
            raise Unaccounted(label)
        del columns[at]
        for row in rows:
            del row[at]

    def move(self, label: str, new: str) -> None:
        """The table of `label` is `new`'s: the same columns and rows, under the
        label of the app its model moved to."""
        if label not in self.tables:
            return
        if new in self.tables:
            raise Unaccounted(new)  # the file has both: not that release's
        self.tables[new] = self.tables.pop(label)

    def rename(self, label: str, new: str, *names: str) -> None:
        if label not in self.tables:
            return
        columns = self.tables[label][0]
        at = next((columns.index(n) for n in names if n in columns), None)
        if at is None or new in columns:
            raise Unaccounted(label)
        columns[at] = new


@dataclass(frozen=True)
class Written:
    """What a restore or an import wrote: this site's ids of the rows of each
    table it loaded, and whether it was the whole site (`manage.py restore FILE`)."""

    ids: Mapping[str, Sequence[int]]
    site: bool = False


class Step:
    """One change a migration made to the rows a backup holds."""

    def apply(self, tables: Tables) -> None:
        """Bring the rows forward (nothing for a step done once they are loaded)."""

    def loaded(self, written: Written) -> None:
        """Done on the rows once loaded (nothing for a step done on the file)."""


@dataclass(frozen=True)
class Add(Step):
    """A column added, with the value the migration gave every row there was then:
    `value`, or what `once()` gives (a callable default, which Django reads once for
    all the rows, as the site's time zone was)."""

    label: str
    column: str
    value: Any = None
    once: Callable[[], Any] | None = None

    def apply(self, tables: Tables) -> None:
        tables.add(self.label, self.column, self.once() if self.once else self.value)


@dataclass(frozen=True)
class Drop(Step):
    """A column removed. `field`: a reference's field name, as a whole site's file
    writes it (`team` for `team_id`)."""

    label: str
    column: str
    field: str = ""

    def apply(self, tables: Tables) -> None:
        tables.drop(self.label, self.column, *([self.field] if self.field else []))


@dataclass(frozen=True)
class Rename(Step):
    """A column renamed from `old` to `new` (attnames; `field` as for Drop)."""

    label: str
    old: str
    new: str
    field: str = ""

    def apply(self, tables: Tables) -> None:
        names = [self.old, *([self.field] if self.field else [])]
        tables.rename(self.label, self.new, *names)


@dataclass(frozen=True)
class Move(Step):
    """A model moved to another app with its table (a state-only migration): the
    rows of `label` become those of `new`."""

    label: str
    new: str

    def apply(self, tables: Tables) -> None:
        tables.move(self.label, self.new)


@dataclass(frozen=True)
class Replay(Step):
    """The migration's data migration, replayed on the file's rows."""

    rows: Callable[[Tables], None]

    def apply(self, tables: Tables) -> None:
        self.rows(tables)


@dataclass(frozen=True)
class Loaded(Step):
    """What the migration (or the first `migrate` after it) filled, done once the
    rows are loaded, with their ids on this site."""

    rows: Callable[[Written], None]

    def loaded(self, written: Written) -> None:
        self.rows(written)


@dataclass(frozen=True)
class Upgrade:
    """How a file written before migration `app`.`name` is brought past it: its
    steps in order, or none and `why` (the rows a backup holds do not change)."""

    app: str
    name: str
    steps: tuple[Step, ...] = ()
    why: str = ""

    @property
    def node(self) -> Node:
        return (self.app, self.name)


def upgrade(app: str, name: str, *steps: Step, why: str = "") -> Upgrade:
    if not steps and not why:
        raise AssertionError(f"{app}.{name}: an upgrade with no step says why")
    return Upgrade(app, name, steps, why)


_UPGRADES: dict[Node, Upgrade] = {}


def register(*upgrades: Upgrade) -> None:
    """Called by each app's `backup_upgrades` module, for its own migrations."""
    for one in upgrades:
        if one.node in _UPGRADES:
            raise AssertionError(f"two upgrades of {one.app}.{one.name}")
        _UPGRADES[one.node] = one


@cache
def registry() -> dict[Node, Upgrade]:
    """Every app's upgrades, by migration."""
    autodiscover_modules("backup_upgrades")
    return _UPGRADES


# Which migrations a file lacks
# ----------------------------------------------------------------------------------


@cache
def graph() -> MigrationGraph:
    """The migrations of this code (its files, not the database's table): read once
    per process."""
    return MigrationLoader(None, ignore_no_migrations=True).graph


def _nodes(state: Mapping[str, str]) -> list[Node]:
    return [(app, name) for app, name in state.items() if app in APPS]


def applied(state: Mapping[str, str]) -> list[Node]:
    """Every migration of APPS a site at `state` has applied, in the order they ran
    (each with the migrations it depends on before it). One this code does not
    know is left out (file_state refuses a file naming one)."""
    plan: dict[Node, None] = {}
    for node in _nodes(state):
        if node not in graph().nodes:
            continue
        for step in graph().forwards_plan(node):
            if step[0] in APPS:
                plan.setdefault(step)
    return list(plan)


@dataclass(frozen=True)
class FileState:
    """Where a file's rows stand against this site's: who wrote it, the upgrades
    that bring it forward (none: at this site's migrations), or why it cannot be."""

    written_by: Words | str
    upgrades: tuple[Upgrade, ...] = ()
    refusal: BackupRefused | None = None

    @property
    def older(self) -> bool:
        return bool(self.upgrades) and self.refusal is None

    def refuse(self) -> None:
        if self.refusal is not None:
            raise self.refusal

    def loaded(self, written: Written) -> None:
        """The steps done once the rows are loaded, in the migrations' order."""
        for one in self.upgrades:
            for step in one.steps:
                step.loaded(written)


@cache
def _release_applied(name: str) -> frozenset[Node]:
    return frozenset(applied(RELEASES[name]))


def _release_of(done: set[Node]) -> Words | str:
    """The release a site that had applied `done` ran: one of RELEASES where it is
    exactly that release's state, else a build between two."""
    newest = None
    for name in RELEASES:
        release_done = _release_applied(name)
        if done == release_done:
            return name
        if release_done <= done:
            newest = name
    if newest is None:
        return filled(marked("a release before %(oldest)s"), oldest=OLDEST)
    return filled(marked("a build after %(release)s"), release=newest)


def _listed(migrations: list[str], most: int = 5) -> str:
    return ", ".join(migrations[:most]) + (" …" if len(migrations) > most else "")


def file_state(header: Mapping[str, Any]) -> FileState:
    """Where the rows of a file with this header (its `migrations`, and the
    `release` that wrote it if it says) stand against this database's."""
    here = migrations()
    recorded = header.get("migrations")
    if recorded == here:
        return FileState(release())
    said = header.get("release")
    said = said if isinstance(said, str) and said else None
    if not isinstance(recorded, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in recorded.items()
    ):
        recorded = {}
    unknown = [f"{a}.{n}" for a, n in _nodes(recorded) if (a, n) not in graph().nodes]
    if unknown:
        written_by = said or marked("a newer release")
        return FileState(
            written_by,
            refusal=BackupRefused(
                filled(
                    marked(
                        "it was written by %(release)s, and this site runs "
                        "%(here)s: the file's migrations %(unknown)s are not this "
                        "site's (a newer release's, or other code's). Restore it on "
                        "a site of its own release or a newer one."
                    ),
                    release=written_by,
                    here=release(),
                    unknown=_listed(unknown),
                )
            ),
        )
    done = set(applied(recorded))
    written_by = _release_of(done)
    here_done = applied(here)
    ahead = [f"{a}.{n}" for a, n in done - set(here_done)]
    if ahead:
        return FileState(
            written_by,
            refusal=BackupRefused(
                filled(
                    marked(
                        "it was written at migrations %(ahead)s, which this "
                        "database has not applied yet (this site runs %(here)s): "
                        "migrate it first (manage.py migrate)."
                    ),
                    ahead=_listed(sorted(ahead)),
                    here=release(),
                )
            ),
        )
    if not _release_applied(OLDEST) <= done:
        return FileState(
            written_by,
            refusal=BackupRefused(
                filled(
                    marked(
                        "it was written by %(release)s, at migrations older than "
                        "release %(oldest)s's, the oldest whose files this site "
                        "(%(here)s) brings forward. Restore it on a site of its own "
                        "release, upgrade that site to %(oldest)s or later, and back "
                        "it up again."
                    ),
                    release=written_by,
                    here=release(),
                    oldest=OLDEST,
                )
            ),
        )
    known = registry()
    pending = [node for node in here_done if node not in done]
    missing = [f"{a}.{n}" for a, n in pending if (a, n) not in known]
    if missing:  # a migration shipped without its upgrade: the test catches it
        return FileState(
            written_by,
            refusal=BackupRefused(
                filled(
                    marked(
                        "it was written by %(release)s; this site runs %(here)s, "
                        "which knows no upgrade of its rows for migration "
                        "%(missing)s."
                    ),
                    release=written_by,
                    here=release(),
                    missing=_listed(missing),
                )
            ),
        )
    return FileState(written_by, tuple(known[node] for node in pending))


def unaccounted(
    state: FileState, label: str, held: Iterable[str], expected: Iterable[str]
) -> BackupRefused:
    """The refusal of a table whose columns the upgrades do not make this site's."""
    held, expected = list(held), list(expected)
    return BackupRefused(
        filled(
            marked(
                "the columns of %(label)s, brought forward from %(release)s, are not "
                "this site's (%(expected)s): no upgrade accounts for %(columns)s."
            ),
            label=label,
            release=state.written_by,
            expected=", ".join(expected),
            columns=", ".join(
                [c for c in held if c not in expected]
                + [c for c in expected if c not in held]
            ),
        )
    )


def tables_bring_forward(
    state: FileState,
    tables: dict[str, tuple[list[str], list[list]]],
    expected: Callable[[str], list[str]],
) -> None:
    """Carry `tables` (label: (columns, rows), changed in place) through the
    upgrades of `state`; refused where a table lacks a column a step reads.
    `expected(label)`: this site's columns of a table, as the file names them."""
    rows = Tables(tables)
    for one in state.upgrades:
        for step in one.steps:
            try:
                step.apply(rows)
            except Unaccounted as error:
                raise unaccounted(
                    state, error.label, rows.columns(error.label), expected(error.label)
                ) from error


def archive_bring_forward(archive: Archive) -> FileState:
    """A tournament's file made this site's: refused where its state is (a newer
    release's, one from before OLDEST), else carried through the upgrades it
    lacks; then each table must have this site's columns, and is put in their
    order. Kept on the archive as `state`."""
    state = file_state(archive.header)
    state.refuse()
    tables_bring_forward(state, archive.tables, _tournament_columns)
    for label, (columns, rows) in archive.tables.items():
        expected = _tournament_columns(label)
        if columns == expected:
            continue
        if not state.upgrades:  # a file of this site's migrations, not its columns
            raise BackupRefused(
                filled(
                    marked(
                        "line %(number)s: the columns of %(label)s are not this site's "
                        "(%(expected)s); the file is of other code."
                    ),
                    number=archive.columns_line.get(label),
                    label=label,
                    expected=expected,
                )
            )
        if sorted(columns) != sorted(expected):
            raise unaccounted(state, label, columns, expected)
        order = [columns.index(c) for c in expected]
        rows[:] = [[row[at] for at in order] for row in rows]
        columns[:] = expected
    archive.state = state
    return state


def _tournament_columns(label: str) -> list[str]:
    return list(PEOPLE_COLUMNS) if label == PEOPLE else columns_of(model_of(label))
