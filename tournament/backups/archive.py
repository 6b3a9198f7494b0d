"""The file of a tournament's backup, or of some of its sheets (docs/backups.md).

A file is gzip-compressed text: one or more gzip members, read as one stream, of
lines of JSON. The first line is the header (what, when, why, the migrations, rows per
model, the checksum). Every other line holds rows, table by table:

    {"tables": {"tournament.team": {"columns": ["id", ...], "rows": [[17, ...], ...]}}}

and a sheet's own line says which sheet and version it is: `"sheet": 42, "version": 7`.
Rows keep the ids of the site that wrote them; a restore puts them back as they were,
an import gives them new ids (services.py). People are named by username only
(`auth.user` with two columns): no password hash, no token, no link key.

The checksum (`sha256` of the header) is the SHA-256 of the SHA-256 hex digests of the
body lines, one per line, each followed by a newline: a sheet's line can then be kept
compressed, digest and all (`SheetCopy`), and put into the next backup as it is, which
is why a backup of a tournament costs what changed since the last one, not what the
tournament holds.

This module reads and writes files; it neither deletes nor inserts rows.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import re
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any
from uuid import UUID

from django.apps import apps
from django.conf import settings
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder
from django.db.models import Model
from django.utils import timezone

from tournament.ops import version

from ..domain.errors import filled, marked

FORMAT = "fiftysix-tournament"
VERSION = 1
APPS = ("auth", "authtoken", "tournament", "scoring", "brackets")
PEOPLE = "auth.user"
PEOPLE_COLUMNS = ["id", "username"]
SECRETS = "none: people by username only, no password hash, no token, no link key"

# What travels with a tournament, in an order that loads (referred-to first), and for
# each model the lookup from it to its tournament.
TOURNAMENT_PARTS = {
    "tournament.tournament": "pk",
    "tournament.section": "tournament",
    "tournament.team": "tournament",
    "tournament.player": "team__tournament",
    "tournament.substitution": "team__tournament",
    "tournament.membership": "tournament",
    "scoring.leaguedraw": "tournament",
    "scoring.leagueround": "tournament",
    "scoring.bye": "tournament",
    "scoring.announcement": "tournament",
    "scoring.standingslot": "tournament",
}
# A score sheet's rows, and the lookup from each to its sheet (a match).
SHEET_PARTS = {
    "scoring.match": "pk",
    "scoring.deal": "match",
    "scoring.penalty": "deal__match",
    "scoring.matchtally": "match",
    "scoring.sheetchange": "match",
    "scoring.dispute": "match",
}
# The knockout, after the sheets its games are played on.
BRACKET_PARTS = {
    "brackets.bracket": "tournament",
    "brackets.seed": "bracket__tournament",
    "brackets.knockoutmatch": "bracket__tournament",
    "brackets.game": "knockout_match__bracket__tournament",
}
LOAD_ORDER = [*TOURNAMENT_PARTS, *SHEET_PARTS, *BRACKET_PARTS]
# A table whose model moved to another app, its table kept (a state-only migration),
# by the label an earlier release's file names it with: read as any other, then
# moved to its label here by that migration's upgrade (scoring/backup_upgrades.py).
FORMER_LABELS = {
    f"tournament.{model}": f"scoring.{model}"  # scoring 0017, tournament 0014
    for model in ("leaguedraw", "leagueround", "bye", "announcement")
}
# Everything else of the apps above, and why it stays out of a tournament's file
# (tests/tournament/services/test_backups.py walks every model against these).
LEFT_OUT = {
    "scoring.exportjob": "a built workbook, rebuilt on request",
    "tournament.backup": "the backups themselves",
    "tournament.sheetcopy": "a cache of the backups, rebuilt when missing",
    "tournament.invitation": "a link that gives a role: pending ones are secrets, "
    "used ones are spent",
    "tournament.link": "a table's or team's key is a secret: a restored tournament "
    "makes new links, and its cards are printed again",
    "tournament.languagepreference": "a person's own choice of language, not the "
    "tournament's",
    "tournament.siteinvitation": "the site's, not a tournament's: a link that makes a "
    "creator or an administrator",
    "tournament.passwordresetrequest": "the password reset throttle's passing count",
    "tournament.person": "the site's people, across tournaments: a restored or "
    "imported tournament's players find theirs again by name and city",
    "tournament.seat": "a player's person is the site's: found again after a load, "
    "a restore keeping the person each had (docs/ratings.md)",
    "tournament.personchange": "the site's merges and splits of people",
    "scoring.ratedgame": "the site's ratings, computed again from the sheets",
    "scoring.ratingstep": "the site's ratings, computed again from the sheets",
    "scoring.personrating": "the site's ratings, computed again from the sheets",
    "scoring.rebuildwanted": "the site's ratings: a rebuild not done yet",
    "scoring.rebuildqueue": "the site's ratings: whether a rebuild is queued",
    "tournament.namesakesuggestion": "the site's people: a suggested match waits "
    "for a site administrator (a restored tournament's players keep their people)",
    "brackets.season": "the site's seasons, across tournaments",
    "auth.user": "people travel by username only: never a password hash",
    "auth.group": "site-wide, not the tournament's",
    "auth.permission": "rebuilt by migrate",
    "authtoken.token": "a secret: a working login for scripts",
    "authtoken.tokenproxy": "a secret: a working login for scripts",
}


class BackupRefused(Exception):
    """A file that is not a backup this site can take; nothing was changed."""


def model_of(label: str) -> type[Model]:
    return apps.get_model(label)


def columns_of(model: type[Model]) -> list[str]:
    return [f.attname for f in model._meta.concrete_fields]


def release() -> str:
    """The release this code is (pyproject's version): a file's header says it, and
    a file brought forward is said to be brought up to it (upgrades.py). The one
    place a backup reads the version."""
    return version.VERSION


def migrations() -> dict[str, str]:
    """The newest applied migration of each app: read once per process and
    database, since a process runs one version of the code."""
    key = (connection.alias, connection.settings_dict["NAME"])
    if key not in _MIGRATIONS:
        _MIGRATIONS[key] = _migrations_read()
    return dict(_MIGRATIONS[key])


_MIGRATIONS: dict[tuple, dict[str, str]] = {}


def _migrations_read() -> dict[str, str]:
    latest: dict[str, str] = {}
    for app, name in MigrationRecorder(connection).applied_migrations():
        if app in APPS and name > latest.get(app, ""):
            latest[app] = name
    return latest


def _plain(value: Any) -> Any:
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, Decimal | UUID):
        return str(value)
    if isinstance(value, bytes | memoryview):
        raise TypeError("a backup holds no binary column")
    raise TypeError(f"{type(value).__name__} in a backup row")


def line_text(obj: dict) -> bytes:
    return json.dumps(
        obj, default=_plain, separators=(",", ":"), ensure_ascii=False
    ).encode()


def digest(line: bytes) -> str:
    return hashlib.sha256(line).hexdigest()


def member(data: bytes) -> bytes:
    """One gzip member; the fastest level: JSON still shrinks five- to tenfold."""
    return gzip.compress(data, compresslevel=1, mtime=0)


@dataclass
class Line:
    """One body line of a file: compressed, with its digest and row counts."""

    packed: bytes
    sha256: str
    counts: dict[str, int]
    people: set[int] = field(default_factory=set)  # the ids of the people it names
    sheet: int | None = None
    version: int | None = None


def line_pack(obj: dict, counts: dict[str, int]) -> Line:
    text = line_text(obj)
    return Line(member(text + b"\n"), digest(text), counts, table_people(obj["tables"]))


def table(model: type[Model], rows: Iterable[tuple]) -> dict:
    return {"columns": columns_of(model), "rows": [list(r) for r in rows]}


def rows_of(model: type[Model], **where) -> list[tuple]:
    # One round trip: `.iterator()` opened a server-side cursor on PostgreSQL
    # (DECLARE, two FETCHes, CLOSE) for each table, most of which hold a few rows,
    # to fill the same list.
    return list(
        model._base_manager.filter(**where)
        .order_by("pk")
        .values_list(*columns_of(model))
    )


def user_columns(model: type[Model]) -> list[int]:
    """The positions of the columns that name a person."""
    user = settings.AUTH_USER_MODEL.lower()
    return [
        i
        for i, f in enumerate(model._meta.concrete_fields)
        if f.is_relation and f.related_model._meta.label_lower == user
    ]


# The sheets: read in four queries however many, one line each
# ----------------------------------------------------------------------------------


def sheet_lines(**where) -> dict[int, Line]:
    """The lines of the sheets `where` selects (lookups on scoring.match), by sheet
    id: each sheet's match row, deals, penalties and history."""
    parts: dict[int, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    versions: dict[int, int] = {}
    deal_sheet: dict[int, int] = {}
    for label, path in SHEET_PARTS.items():
        model = model_of(label)
        lookups = {(k if path == "pk" else f"{path}__{k}"): v for k, v in where.items()}
        names = columns_of(model)
        rows = rows_of(model, **lookups)
        if label == "scoring.match":
            at_version = names.index("version")
            for row in rows:
                parts[row[0]][label].append(row)
                versions[row[0]] = row[at_version]
        elif label == "scoring.deal":
            at_match = names.index("match_id")
            for row in rows:
                deal_sheet[row[0]] = row[at_match]
                parts[row[at_match]][label].append(row)
        elif label == "scoring.penalty":
            at_deal = names.index("deal_id")
            for row in rows:
                parts[deal_sheet[row[at_deal]]][label].append(row)
        else:
            at_match = names.index("match_id")
            for row in rows:
                parts[row[at_match]][label].append(row)
    lines = {}
    for sheet, tables in parts.items():
        if sheet not in versions:
            continue  # rows of a sheet the filter did not select
        body = {
            "sheet": sheet,
            "version": versions[sheet],
            "tables": {
                label: table(model_of(label), tables.get(label, []))
                for label in SHEET_PARTS
            },
        }
        counts = {label: len(tables.get(label, [])) for label in SHEET_PARTS}
        line = line_pack(body, counts)
        line.sheet, line.version = sheet, versions[sheet]
        lines[sheet] = line
    return lines


def people_line(lines: Iterable[Line]) -> Line:
    """The people the other lines name, by username only."""
    ids = set().union(*(line.people for line in lines))
    user = model_of(PEOPLE)
    rows = user._base_manager.filter(pk__in=ids).order_by("pk")
    people = {"columns": list(PEOPLE_COLUMNS), "rows": []}
    people["rows"] = [list(r) for r in rows.values_list("pk", "username")]
    return line_pack({"tables": {PEOPLE: people}}, {PEOPLE: len(people["rows"])})


def table_people(tables: dict[str, dict]) -> set[int]:
    """The people named in `tables` (label: {"columns", "rows"})."""
    found: set[int] = set()
    for label, part in tables.items():
        positions = user_columns(model_of(label))
        for row in part["rows"]:
            found.update(row[i] for i in positions if row[i] is not None)
    return found


@dataclass
class Written:
    content: bytes
    header: dict
    counts: dict[str, int]

    @property
    def rows(self) -> int:
        return sum(self.counts.values())


def file_write(*, header: dict, lines: list[Line]) -> Written:
    """The file: the header (with the counts and the checksum of `lines`) and then the
    lines, each an already compressed gzip member."""
    counts: dict[str, int] = defaultdict(int)
    for line in lines:
        for label, count in line.counts.items():
            counts[label] += count
    header = {
        "format": FORMAT,
        "version": VERSION,
        **header,
        "release": release(),
        "migrations": migrations(),
        "secrets": SECRETS,
        "counts": dict(counts),
        "lines": len(lines),
        "sha256": hashlib.sha256(
            "".join(line.sha256 + "\n" for line in lines).encode()
        ).hexdigest(),
    }
    out = io.BytesIO()
    out.write(member(line_text(header) + b"\n"))
    for line in lines:
        out.write(line.packed)
    return Written(out.getvalue(), header, dict(counts))


def now_text() -> str:
    return timezone.now().isoformat()


# Reading a file back, checked
# ----------------------------------------------------------------------------------


@dataclass
class Archive:
    """A file's header and its rows, table by table: (columns, rows). The columns
    are the file's, checked to be the same on every line that holds the table;
    services.py brings them forward to this site's (upgrades.py)."""

    header: dict
    tables: dict[str, tuple[list[str], list[list]]] = field(default_factory=dict)
    # The line that first held each table's columns, named by a refusal.
    columns_line: dict[str, int] = field(default_factory=dict)
    state: Any = None  # upgrades.FileState, once services.py brought it forward

    def rows(self, label: str) -> list[dict[str, Any]]:
        columns, rows = self.tables.get(label, ([], []))
        return [dict(zip(columns, row, strict=True)) for row in rows]


# What a file taken in may be, checked before a byte of it is parsed
# ----------------------------------------------------------------------------------
# A gzip member inflates up to a thousandfold (612 KB of zeros are 600 MB), and Python's
# json parses nesting by recursion (200,000 `[` end in a RecursionError). So a file is
# inflated in bounded steps, first only measured (a bomb then costs the time to
# inflate up to the limit and about one step of memory), and each line's nesting is
# counted by one scan before json reads it (docs/backups.md, "Hostile files").

STEP_IN = 64 * 1024  # compressed bytes handed to zlib at a time
STEP_OUT = 1024 * 1024  # the most zlib inflates at a time
_GZIP = 16 + zlib.MAX_WBITS
# What the nesting scan keeps of a text: quotes and brackets, objects read as arrays.
_SCANNED = b'"[]{}'
_OTHER = bytes(b for b in range(256) if b not in _SCANNED)
_SQUARE = bytes.maketrans(b"{}", b"[]")
_RUNS = re.compile(rb"\[+|\]+")


def _too_large(limit: int, setting: str) -> BackupRefused:
    return BackupRefused(
        filled(
            marked(
                "the file inflates to more than %(mb)s MB of text, the most a backup "
                "may hold here (%(setting)s)."
            ),
            mb=limit // 2**20,
            setting=setting,
        )
    )


def pieces_of(content: bytes) -> Iterator[memoryview]:
    view = memoryview(content)
    for start in range(0, len(view), STEP_IN):
        yield view[start : start + STEP_IN]


def inflated(pieces: Iterable[bytes], limit: int, setting: str) -> Iterator[bytes]:
    """The text of every gzip member of the compressed `pieces`, in steps of at most
    STEP_OUT bytes, refused as soon as it passes `limit` bytes."""
    size = 0
    inflater = None
    try:
        for piece in pieces:
            data: bytes = piece
            while True:
                if inflater is None:
                    if not data:
                        break
                    inflater = zlib.decompressobj(wbits=_GZIP)
                chunk = inflater.decompress(data, STEP_OUT)
                size += len(chunk)
                if size > limit:
                    raise _too_large(limit, setting)
                if chunk:
                    yield chunk
                if inflater.eof:  # the next member, if any, starts here
                    data, inflater = inflater.unused_data, None
                    continue
                data = inflater.unconsumed_tail
                if not data and len(chunk) < STEP_OUT:
                    break  # this piece is read, and no inflated text is held back
    except zlib.error as error:
        raise BackupRefused(
            filled(marked("it is not gzip-compressed (%(error)s)."), error=error)
        ) from error
    if inflater is not None:
        raise BackupRefused(marked("the file ends in the middle: it is not whole."))


def inflate(pieces: Callable[[], Iterable[bytes]], limit: int, setting: str) -> bytes:
    """The whole text of a gzip-compressed file, `pieces()` giving its compressed
    bytes: measured first, keeping nothing, so that a file inflating past `limit`
    is refused having held one step of it; then inflated again and kept."""
    for _ in inflated(pieces(), limit, setting):
        pass
    text = bytearray()
    for chunk in inflated(pieces(), limit, setting):
        text += chunk
    return bytes(text)


def _inflate(content: bytes, limit: int, setting: str = "BACKUP_MAX_BYTES") -> bytes:
    return inflate(lambda: pieces_of(content), limit, setting)


def _brackets(text: bytes) -> bytes:
    """The brackets of a JSON text outside its strings, `{}` written as `[]`: escapes
    are taken out first (an escaped backslash, then an escaped quote), then every
    byte but quotes and brackets, then empty strings; what quotes remain enclose a
    string with a bracket in it, cut out a window at a time."""
    if b"\\" in text:
        text = text.replace(b"\\\\", b"").replace(b'\\"', b"")
    scanned = text.translate(_SQUARE, _OTHER).replace(b'""', b"")
    if b'"' not in scanned:
        return scanned
    outside = []
    inside = False
    for start in range(0, len(scanned), STEP_OUT):
        parts = scanned[start : start + STEP_OUT].split(b'"')
        outside.append(b"".join(parts[1 if inside else 0 :: 2]))
        if len(parts) % 2 == 0:
            inside = not inside
    return b"".join(outside)


def nests_deeper(text: bytes, limit: int) -> bool:
    """Whether the JSON text nests arrays and objects more than `limit` deep, without
    parsing it. For a text json would read this is exact; for one it would refuse,
    it may say deeper than json would go before refusing it.

    Each pass takes out every innermost pair `[]`, which lowers the deepest point by
    exactly one (by at most one in a text that is not JSON); once passes take out
    little (deep chains), the rest is counted run by run."""
    brackets = _brackets(text)
    if brackets.count(b"[") <= limit:
        return False
    passes = 0
    while brackets and passes < limit:
        fewer = brackets.replace(b"[]", b"")
        taken = len(brackets) - len(fewer)
        if not taken:
            break
        brackets, passes = fewer, passes + 1
        if taken * 8 < len(brackets) + taken:
            break
    depth, most = 0, limit - passes
    for run in _RUNS.finditer(brackets):
        length = run.end() - run.start()
        if brackets[run.start()] == 0x5B:  # [
            depth += length
            if depth > most:
                return True
        else:
            depth -= length
    return False


def _depth_check(line: bytes, number: int, depth: int) -> None:
    if nests_deeper(line, depth):
        raise BackupRefused(
            filled(
                marked(
                    "line %(number)s nests its brackets more than %(depth)s deep, the "
                    "most a backup may (BACKUP_MAX_DEPTH; a backup's lines nest about "
                    "6 deep)."
                ),
                number=number,
                depth=depth,
            )
        )


def file_read(
    content: bytes, *, limit: int | None = None, setting: str = "BACKUP_MAX_BYTES"
) -> Archive:
    """The archive a file holds, after checking its size once inflated (at most
    `limit` bytes, else the setting named `setting`: BACKUP_IMPORT_MAX_BYTES for the
    pages, BACKUP_MAX_BYTES for the command line), its nesting, format, version,
    shape and checksum; BackupRefused says what is wrong."""
    limit = limit or getattr(settings, setting)
    depth = settings.BACKUP_MAX_DEPTH
    text = _inflate(content, limit, setting)
    head, _, body = text.partition(b"\n")
    del text
    _depth_check(head, 1, depth)
    try:
        header = json.loads(head)
    except ValueError as error:
        raise BackupRefused(
            marked("its first line is not a backup's header.")
        ) from error
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise BackupRefused(
            filled(
                marked("it is not a tournament's backup (%(FORMAT)s)."),
                FORMAT=FORMAT,
            )
        )
    if header.get("version") != VERSION:
        raise BackupRefused(
            filled(
                marked(
                    "it is format version %(version)s; this site reads version "
                    "%(VERSION)s."
                ),
                version=header.get("version"),
                VERSION=VERSION,
            )
        )
    lines = [line for line in body.split(b"\n") if line]
    check = hashlib.sha256(
        "".join(digest(line) + "\n" for line in lines).encode()
    ).hexdigest()
    if check != header.get("sha256") or len(lines) != header.get("lines"):
        raise BackupRefused(
            marked("it is damaged: its rows do not match its checksum.")
        )
    archive = Archive(header)
    for number, line in enumerate(lines, start=2):
        _depth_check(line, number, depth)
        _merge(archive, line, number)
    return archive


def _merge(archive: Archive, line: bytes, number: int) -> None:
    try:
        tables = json.loads(line)["tables"]
    except (ValueError, KeyError, TypeError) as error:
        raise BackupRefused(
            filled(marked("line %(number)s is not a line of rows."), number=number)
        ) from error
    if not isinstance(tables, dict):
        raise BackupRefused(
            filled(marked("line %(number)s is not a line of rows."), number=number)
        )
    for label, part in tables.items():
        if label != PEOPLE and label not in LOAD_ORDER and label not in FORMER_LABELS:
            raise BackupRefused(
                filled(
                    marked("line %(number)s holds %(label)r, not a tournament's."),
                    number=number,
                    label=label,
                )
            )
        columns = part.get("columns") if isinstance(part, dict) else None
        if label == PEOPLE:
            shaped = columns == PEOPLE_COLUMNS
        else:  # the file's own: an earlier release's are brought forward later
            shaped = (
                isinstance(columns, list)
                and all(isinstance(c, str) for c in columns)
                and len(set(columns)) == len(columns) > 0
            )
        if not shaped:
            raise BackupRefused(
                filled(
                    marked(
                        "line %(number)s: the columns of %(label)s are not this site's "
                        "(%(expected)s); the file is of other code."
                    ),
                    number=number,
                    label=label,
                    expected=(
                        PEOPLE_COLUMNS
                        if label == PEOPLE
                        else columns_of(model_of(label))
                    ),
                )
            )
        held = archive.tables.get(label)
        if held is not None and held[0] != columns:
            raise BackupRefused(
                filled(
                    marked(
                        "line %(number)s: the columns of %(label)s are not those of "
                        "line %(first)s."
                    ),
                    number=number,
                    label=label,
                    first=archive.columns_line[label],
                )
            )
        rows = part.get("rows")
        if not isinstance(rows, list) or any(
            not isinstance(r, list) or len(r) != len(columns) for r in rows
        ):
            raise BackupRefused(
                filled(
                    marked("line %(number)s: a row of %(label)s is not whole."),
                    number=number,
                    label=label,
                )
            )
        if held is None:
            archive.tables[label] = (list(columns), [])
            archive.columns_line[label] = number
        archive.tables[label][1].extend(rows)
