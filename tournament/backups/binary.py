"""Bytes in and out of PostgreSQL as bytes: Django's psycopg cursor binds values
into the statement's text, which turns a backup of 2 MB into 4 MB of hex for the
server to parse again (a hundred milliseconds). Here the bytes go as a binary
parameter and come back as binary results; SQLite binds blobs as they are.

psycopg's cursor is db/raw.py's, inside Django's error wrapping: a database lost
during an automatic backup is Django's OperationalError, answered 503."""

from __future__ import annotations

from collections.abc import Iterator

from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import QuerySet

from tournament.db.raw import compiled, driver_cursor


def content_store(backup, content: bytes) -> None:
    """Write `content` into the backup row (saved already, empty)."""
    table = connection.ops.quote_name(backup._meta.db_table)
    if connection.vendor != "postgresql":
        type(backup)._base_manager.filter(pk=backup.pk).update(content=content)
        return
    import psycopg

    with driver_cursor(psycopg.Cursor) as cursor:
        cursor.execute(
            f"UPDATE {table} SET content = %b WHERE id = %s",  # noqa: S608
            [content, backup.pk],
        )
    backup.content = content


def binary_rows(queryset: QuerySet) -> Iterator[tuple]:
    """The rows of a values_list queryset, bytes as bytes."""
    if connection.vendor != "postgresql":
        for row in queryset:
            yield tuple(bytes(v) if isinstance(v, memoryview) else v for v in row)
        return
    import psycopg

    try:
        sql, params = compiled(queryset)
    except EmptyResultSet:  # an `__in` of nothing: no query to run
        return
    with driver_cursor(psycopg.Cursor) as cursor:
        cursor.execute(sql, params, binary=True)
        yield from cursor
