"""Many rows into one table at once, without a model instance per row
(docs/performance.md): PostgreSQL's COPY, each value sent as psycopg adapts it;
elsewhere one INSERT statement run for every row inside SQLite's module
(executemany). Django's `bulk_create` builds an instance and compiles every value of
every row into the statement's text: for a rebuild's 240,000 rating steps that was
most of its time.

The values go as they are: the caller gives each column the value as its field
prepares it for the database (`get_db_prep_save`: a JSON column's, a foreign key its
id). Every constraint holds as
for any insert: checks and unique indexes at once, references at the transaction's
check. Columns left out take their database default: an id its identity.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import connection
from django.db.models import Model

from .raw import driver_cursor


def rows_insert(
    model: type[Model], columns: Sequence[str], rows: Iterable[Sequence]
) -> None:
    """`rows` (tuples in the order of `columns`, the tables' column names) into
    `model`'s table."""
    ops = connection.ops
    table = ops.quote_name(model._meta.db_table)
    names = ", ".join(ops.quote_name(c) for c in columns)
    if connection.vendor == "postgresql":
        with (
            driver_cursor() as cursor,
            cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy,
        ):
            for row in rows:
                copy.write_row(row)
        return
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    insert = f"INSERT INTO {table} ({names}) VALUES {one}"  # noqa: S608 - our names
    with connection.cursor() as cursor:
        cursor.executemany(insert, list(rows))
