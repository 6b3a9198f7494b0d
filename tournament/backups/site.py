"""Backups of the whole site, by hand, and their restore (docs/backups.md).

A backup is one gzip-compressed JSON file, readable by its owner only. It holds the
format's name and version, when and why it was made, the migrations the database was
at, whether it holds password hashes, a count of rows per model, the SHA-256 of its
rows, and the rows themselves in Django's serialization ("python" form: model, pk,
fields). It has every user (their password hashes only when asked for), the
tournaments, sections, teams, players, roles, draws, score sheets with every deal,
penalty and history row, standings lots, and brackets. It leaves out secrets (API
tokens, always) and what is rebuilt or passing: built workbooks, the tournaments' own
backups and their cache (PostgreSQL's dumps carry those), sessions, login failures,
content types and permissions (users' permissions are kept by their natural keys).

A restore replaces all of that, wholesale, in one transaction, after checking the
file's format, checksum and migrations, and after taking a backup of what it replaces.
The backups of one tournament, taken by themselves before the steps that cannot be
undone by hand, are services.py's.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, time
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.db.models import Model
from django.utils import timezone

from ..db.raw import raw_delete, raw_insert
from ..domain.errors import filled, marked
from . import archive
from .archive import APPS, FORMER_LABELS, BackupRefused
from .upgrades import FileState, Written, file_state, tables_bring_forward, unaccounted

FORMAT = "fiftysix-backup"
VERSION = 2  # 2: tokens always left out, password hashes only when asked for
READS = (1, 2)
LEFT_OUT = {
    "auth.permission",
    "authtoken.token",
    "authtoken.tokenproxy",
    "scoring.exportjob",
    "tournament.backup",
    "tournament.link",  # a working key: made again on the restored site
    "tournament.passwordresetrequest",  # passing, as login failures are
    "tournament.sheetcopy",
}
# Rows by natural key: users' groups and permissions refer to permissions, whose ids
# differ between databases.
NATURAL = {"auth.user", "auth.group"}
CHUNK = 2000
GZIP_LEVEL = 1  # fast: the JSON still shrinks about tenfold


class Encoder(DjangoJSONEncoder):
    """Django's JSON, but times to the microsecond (Django's own keeps milliseconds),
    so that a restored row is the row that was backed up."""

    def default(self, o):
        if isinstance(o, datetime | time):
            return o.isoformat()
        return super().default(o)


@dataclass(frozen=True)
class BackupInfo:
    path: Path
    created: str
    reason: str
    counts: dict[str, int]
    state: FileState | None = None  # of a file restored: who wrote it (upgrades.py)

    @property
    def rows(self) -> int:
        return sum(self.counts.values())


def backup_models() -> list[type[Model]]:
    """The models a backup holds, in an order that loads (referred-to first)."""
    chosen = [
        model
        for model in apps.get_models()
        if model._meta.app_label in APPS
        and model._meta.label_lower not in LEFT_OUT
        and model._meta.managed
        and not model._meta.proxy
    ]
    return serializers.sort_dependencies([(None, chosen)], allow_cycles=True)


def _rows(model: type[Model], passwords: bool):
    """The model's rows in Django's "python" serialization. Users and groups go
    through Django's serializer (their permissions by natural key); the other models,
    which are most of the rows, are read as plain values in the same shape: a foreign
    key as its id, as the serializer writes it, at a fraction of its cost."""
    queryset = model._default_manager.order_by("pk")
    label = model._meta.label_lower
    if label in NATURAL or model._meta.many_to_many:
        for row in serializers.serialize(
            "python", queryset.iterator(chunk_size=CHUNK), use_natural_foreign_keys=True
        ):
            if "password" in row["fields"] and not passwords:
                row["fields"]["password"] = ""  # a restore keeps the site's own
            yield row
        return
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    names = [model._meta.pk.attname, *(f.attname for f in fields)]
    for row in queryset.values_list(*names).iterator(chunk_size=CHUNK):
        yield {
            "model": label,
            "pk": row[0],
            "fields": {f.name: value for f, value in zip(fields, row[1:], strict=True)},
        }


def _canonical(rows: list[dict]) -> str:
    return json.dumps(rows, cls=Encoder, sort_keys=True)


def _digest(rows: list[dict]) -> str:
    return hashlib.sha256(_canonical(rows).encode()).hexdigest()


@contextlib.contextmanager
def owner_only(path: Path):
    """A new file that only its owner can read or write (0600), whatever the umask."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(descriptor, 0o600)
    with os.fdopen(descriptor, "wb") as raw:
        yield raw


def backup_dir() -> Path:
    path = Path(settings.BACKUP_DIR)
    path.mkdir(parents=True, exist_ok=True)
    return path


def _file_name(reason: str, now: datetime) -> str:
    words = re.sub(r"[^a-z0-9]+", "-", reason.lower()).strip("-")[:60] or "backup"
    return f"{now:%Y%m%dT%H%M%S.%fZ}-{words}.json.gz"


def backup_write(
    *, reason: str, path: Path | None = None, passwords: bool = False
) -> BackupInfo:
    """Write a backup of the whole site; read in one transaction, so it is one
    moment of the site even while scorers write. Password hashes only with
    `passwords`; API tokens never."""
    now = timezone.now()
    with transaction.atomic():
        rows: list[dict] = []
        counts: dict[str, int] = {}
        for model in backup_models():
            before = len(rows)
            rows.extend(_rows(model, passwords))
            counts[model._meta.label_lower] = len(rows) - before
        migrations = archive.migrations()
    # The rows are turned into JSON once: that text is both what the checksum covers
    # and what the file holds.
    rows_text = _canonical(rows)
    header = {
        "format": FORMAT,
        "version": VERSION,
        "created": now.isoformat(),
        "reason": reason,
        "release": archive.release(),
        "migrations": migrations,
        "passwords": passwords,
        "tokens": False,
        "secrets": (
            "password hashes (asked for with --with-passwords); no API token"
            if passwords
            else "none: no password hash, no API token"
        ),
        "counts": counts,
        "sha256": hashlib.sha256(rows_text.encode()).hexdigest(),
    }
    target = path or backup_dir() / _file_name(reason, now)
    partial = target.with_name(target.name + ".partial")
    with (
        owner_only(partial) as raw,
        gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=GZIP_LEVEL) as out,
    ):
        out.write((json.dumps(header)[:-1] + ', "rows": ' + rows_text + "}").encode())
    partial.replace(target)  # a backup is whole or absent, never half written
    document = header
    return BackupInfo(target, document["created"], reason, counts)


def backup_read(path: Path) -> dict[str, Any]:
    """The document of a backup file, checked: its size once inflated (at most
    BACKUP_SITE_MAX_BYTES, measured in bounded steps before it is kept) and its
    nesting (BACKUP_MAX_DEPTH) before it is parsed, then its format, version and
    checksum."""
    depth = settings.BACKUP_MAX_DEPTH
    try:
        text = archive.inflate(
            lambda: _pieces(path),
            settings.BACKUP_SITE_MAX_BYTES,
            "BACKUP_SITE_MAX_BYTES",
        )
        if archive.nests_deeper(text, depth):
            raise BackupRefused(
                filled(
                    marked(
                        "%(path)s nests its brackets more than %(depth)s deep, the "
                        "most a backup may (BACKUP_MAX_DEPTH; a backup nests about "
                        "6 deep)."
                    ),
                    path=path,
                    depth=depth,
                )
            )
        document = json.loads(text)
    except BackupRefused as refused:
        if str(path) in str(refused):
            raise
        raise BackupRefused(
            filled(
                marked("%(path)s is not a backup this site reads: %(reason)s"),
                path=path,
                reason=refused.args[0],
            )
        ) from refused
    except (OSError, ValueError) as error:
        raise BackupRefused(
            filled(
                marked(
                    "%(path)s is not a backup: it is not gzip-compressed JSON "
                    "(%(error)s)."
                ),
                path=path,
                error=error,
            )
        ) from error
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BackupRefused(
            filled(
                marked("%(path)s is not a backup of this site (%(FORMAT)s)."),
                path=path,
                FORMAT=FORMAT,
            )
        )
    if document.get("version") not in READS:
        raise BackupRefused(
            filled(
                marked(
                    "%(path)s is format version %(version)s; this site reads version "
                    "%(VERSION)s."
                ),
                path=path,
                version=document.get("version"),
                VERSION=VERSION,
            )
        )
    if _digest(document.get("rows", [])) != document.get("sha256"):
        raise BackupRefused(
            filled(
                marked(
                    "%(path)s is damaged: its rows do not match its SHA-256 checksum."
                ),
                path=path,
            )
        )
    return document


def _pieces(path: Path) -> Iterator[bytes]:
    """A file's bytes, a step at a time."""
    with path.open("rb") as source:
        while piece := source.read(archive.STEP_IN):
            yield piece


def backup_list() -> list[BackupInfo]:
    """The backups in BACKUP_DIR, newest first (their headers only)."""
    found = []
    for path in sorted(backup_dir().glob("*.json.gz"), reverse=True):
        try:
            with gzip.open(path, "rt", encoding="utf-8") as source:
                head = json.load(source)
        except (OSError, EOFError, ValueError):
            continue
        found.append(
            BackupInfo(
                path,
                head.get("created", ""),
                head.get("reason", ""),
                head.get("counts", {}),
            )
        )
    return found


@transaction.atomic
def backup_restore(path: Path) -> tuple[BackupInfo, BackupInfo]:
    """Make the site what backup `path` holds. Returns (restored, the backup taken of
    what it replaced). Nothing changes if the file is refused or anything fails."""
    document = backup_read(path)
    state = backup_state(path, document)
    safety = backup_write(reason="before restore")
    models = backup_models()
    by_label = {m._meta.label_lower: m for m in models}
    # A version 1 file has API tokens: never put back (they are secrets).
    rows = [r for r in document["rows"] if not r["model"].startswith("authtoken.")]
    if state.upgrades:
        rows = _rows_bring_forward(path, state, rows)
    _passwords_kept(rows)
    unknown = {row["model"] for row in rows} - set(by_label)
    if unknown:
        raise BackupRefused(
            filled(
                marked("%(path)s holds rows this site does not keep: %(unknown)s."),
                path=path,
                unknown=unknown,
            )
        )
    with connection.constraint_checks_disabled():
        with connection.cursor() as cursor:
            for model in reversed(models):
                for through in _m2m_tables(model):
                    cursor.execute(f"DELETE FROM {connection.ops.quote_name(through)}")  # noqa: S608
                cursor.execute(
                    f"DELETE FROM {connection.ops.quote_name(model._meta.db_table)}"  # noqa: S608
                )
        _load(rows)
        _left_out_follow()
    tables = [m._meta.db_table for m in models]
    connection.check_constraints(table_names=tables)
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(statement)
    # An earlier release's file: what its migrations filled once the rows were
    # there (the contract tallies, the people, the ratings' rebuild).
    state.loaded(Written(_loaded_ids(rows), site=True))
    restored = BackupInfo(
        path, document["created"], document["reason"], document["counts"], state
    )
    return restored, safety


def backup_state(path: Path, document: dict[str, Any]) -> FileState:
    """Where a backup's rows stand against this database's (upgrades.py): at its
    migrations, or written by an earlier release and brought forward; refused,
    naming the file, where it cannot be."""
    state = file_state(document)
    if state.refusal is not None:
        raise _named(path, state.refusal)
    return state


def _site_fields(label: str) -> dict[str, str] | None:
    """This site's fields of a model as its rows in a backup name them (a
    reference by its field's name), each with its attname: the names upgrades
    use. None for a model this site does not have."""
    try:
        model = apps.get_model(label)
    except (LookupError, ValueError):
        return None
    named = {
        f.name: f.attname for f in model._meta.concrete_fields if not f.primary_key
    }
    if label in NATURAL or model._meta.many_to_many:  # Django's serializer's rows
        named |= {f.name: f.name for f in model._meta.local_many_to_many}
    return named


def _pk(label: str) -> str:
    return apps.get_model(label)._meta.pk.attname


def _rows_bring_forward(
    path: Path, state: FileState, rows: list[dict]
) -> list[dict[str, Any]]:
    """An earlier release's rows carried through the upgrades of `state`, as
    tables of attnames (upgrades.Tables), then back into rows of this site's
    fields; refused where a model's fields are then not this site's."""
    tables: dict[str, tuple[list[str], list[list]]] = {}
    names: dict[str, list[str]] = {}
    others: list[dict] = []  # of models this site does not have: refused after
    for row in rows:
        label, fields = row["model"], row["fields"]
        # A table whose model has moved since is named as the file names it (its
        # upgrade moves it), its fields read from the model it is now.
        now = FORMER_LABELS.get(label, label)
        named = _site_fields(now)
        if named is None:
            others.append(row)
            continue
        if label not in tables:
            names[label] = list(fields)
            tables[label] = ([_pk(now), *(named.get(n, n) for n in fields)], [])
        if list(fields) != names[label]:
            raise _named(path, unaccounted(state, label, fields, names[label]))
        tables[label][1].append([row["pk"], *fields.values()])

    def expected(label: str) -> list[str]:
        return [_pk(label), *(_site_fields(label) or {}).values()]

    try:
        tables_bring_forward(state, tables, expected)
    except BackupRefused as refused:
        raise _named(path, refused) from refused
    forward = []
    for label, (columns, values) in tables.items():
        if sorted(columns) != sorted(expected(label)):
            raise _named(path, unaccounted(state, label, columns, expected(label)))
        field_of = {attname: name for name, attname in _site_fields(label).items()}
        keys = [field_of.get(c, c) for c in columns]
        pk = _pk(label)
        for value in values:
            row = dict(zip(keys, value, strict=True))
            forward.append({"model": label, "pk": row.pop(pk), "fields": row})
    return forward + others


def _named(path: Path, refused: BackupRefused) -> BackupRefused:
    return BackupRefused(
        filled(
            marked("%(path)s is not a backup this site reads: %(reason)s"),
            path=path,
            reason=refused.args[0],
        )
    )


def _loaded_ids(rows: list[dict]) -> dict[str, list[int]]:
    ids: dict[str, list[int]] = {}
    for row in rows:
        ids.setdefault(row["model"], []).append(row["pk"])
    return ids


def _passwords_kept(rows: list[dict]) -> None:
    """A file without password hashes keeps each person's hash on this site (same id
    and username); a person this site does not have gets none that works."""
    user_model = get_user_model()
    here = {
        (pk, name): password
        for pk, name, password in user_model._base_manager.values_list(
            "pk", "username", "password"
        )
    }
    label = user_model._meta.label_lower
    for row in rows:
        if row["model"] == label and not row["fields"].get("password"):
            key = (row["pk"], row["fields"].get("username"))
            row["fields"]["password"] = here.get(key) or make_password(None)


def _left_out_follow() -> None:
    """What a site backup leaves out follows what it put back: tokens of people who
    are gone go, workbooks and backup caches of tournaments that are gone go, and
    a tournament's kept backups stay, no longer tied to a tournament that is gone."""
    tournaments = apps.get_model("tournament", "Tournament")._base_manager.values("pk")
    users = get_user_model()._base_manager.values("pk")
    token = apps.get_model("authtoken", "Token")
    token._base_manager.exclude(user__in=users).delete()
    for label in ("scoring.ExportJob", "tournament.SheetCopy"):
        model = apps.get_model(label)
        raw_delete(model._base_manager.exclude(tournament__in=tournaments))
    backup = apps.get_model("tournament", "Backup")
    backup._base_manager.filter(tournament__isnull=False).exclude(
        tournament__in=tournaments
    ).update(tournament=None)


def _m2m_tables(model: type[Model]) -> list[str]:
    return [
        field.remote_field.through._meta.db_table
        for field in model._meta.local_many_to_many
        if field.remote_field.through._meta.auto_created
    ]


def _load(rows: list[dict]) -> None:
    """Insert the rows as they were, model by model in batches, then the
    many-to-many links. Raw inserts, as loaddata makes them: no save() runs, and a
    date written once (a history row's time) keeps its value."""
    batch: list[Model] = []
    links = []
    for item in serializers.deserialize("python", rows, handle_forward_references=True):
        if item.m2m_data:
            links.append(item)
        if batch and type(item.object) is not type(batch[0]):
            insert_raw(batch)
            batch = []
        batch.append(item.object)
    if batch:
        insert_raw(batch)
    for item in links:
        for name, values in item.m2m_data.items():
            getattr(item.object, name).set(values)


def insert_raw(objects: list[Model]) -> None:
    """Rows of one model as they are, ids and all: the raw insert of loaddata, in
    batches; no save() runs, and a date written once (a history row's time) keeps
    its value."""
    if not objects:
        return
    model = type(objects[0])
    fields = list(model._meta.local_concrete_fields)
    size = connection.ops.bulk_batch_size(fields, objects) or len(objects)
    for start in range(0, len(objects), min(size, CHUNK)):
        # the raw insert of loaddata and save_base (db/raw.py)
        raw_insert(model, objects[start : start + min(size, CHUNK)], fields)
