"""The organizer's backups as the Backups page lists them (docs/backups.md): each
without its bytes, with whether it restores here, read from its header alone."""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db.models import BinaryField, QuerySet
from django.db.models.functions import Substr

from ..domain.errors import marked
from ..models import Backup, Tournament
from .archive import FORMAT, STEP_OUT, VERSION, BackupRefused, nests_deeper
from .binary import binary_rows
from .upgrades import FileState, file_state

HEAD_BYTES = 8 * 1024  # the header's gzip member, compressed: a few hundred bytes


def header_of(start: bytes) -> dict[str, Any] | None:
    """The header of a tournament's file from its first bytes (its first gzip
    member), or None where they do not hold it whole; {} where it is no header.
    At most STEP_OUT inflated, and its nesting counted before json reads it."""
    inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    try:
        text = inflater.decompress(start, STEP_OUT)
    except zlib.error:
        return {}
    if not inflater.eof and b"\n" not in text:
        return None
    line = text.partition(b"\n")[0]
    if nests_deeper(line, settings.BACKUP_MAX_DEPTH):
        return {}
    try:
        header = json.loads(line)
    except ValueError:
        return {}
    return header if isinstance(header, dict) else {}


def header_state(header: Mapping[str, Any]) -> FileState:
    """What a kept backup's header says of its restore here (the Backups page):
    at this site's migrations, brought forward, or refused with the reason. The
    rest (its checksum, its rows) is checked when it is restored."""
    if header.get("format") != FORMAT or header.get("version") != VERSION:
        return FileState(
            "",
            refusal=BackupRefused(marked("its first line is not a backup's header.")),
        )
    return file_state(header)


def _with_state(backups: QuerySet) -> list[Backup]:
    """The backups, each with `state` (upgrades.FileState): their first bytes come
    in the same query, and the header is read from them (a backup whose header
    does not fit in them, one of hundreds of sheets, is read whole)."""
    found = list(
        backups.defer("content").annotate(
            head=Substr("content", 1, HEAD_BYTES, output_field=BinaryField())
        )
    )
    for backup in found:
        header = header_of(bytes(backup.head))
        if header is None:
            ((content,),) = binary_rows(
                Backup.objects.filter(pk=backup.pk).values_list("content")
            )
            header = header_of(content) or {}
        backup.state = header_state(header)
    return found


def backup_list(*, tournament: Tournament) -> list[Backup]:
    """The tournament's backups, newest first, each with its `state`."""
    return _with_state(
        Backup.objects.filter(tournament=tournament).select_related("created_by")
    )


def backup_get(*, tournament: Tournament, pk: int) -> Backup | None:
    """One of the tournament's backups with its `state`; None if not its own."""
    found = _with_state(Backup.objects.filter(pk=pk, tournament=tournament))
    return found[0] if found else None
