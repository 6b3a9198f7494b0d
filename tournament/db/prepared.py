"""One statement PostgreSQL plans once per connection instead of at every run
(docs/performance.md, "The standings' fingerprint").

Django's psycopg cursors bind their parameters on the client, so PostgreSQL parses and
plans every statement afresh, and Django leaves psycopg's prepared statements off (they
break behind a connection pooler in transaction mode). That is right for the site's
queries, but not for the one query every spectator's poll runs, the standings'
fingerprint: its plan costs more than its run. `prepared_row` runs such a statement
through a cursor that binds on the server and asks psycopg to prepare it: planned at
its first run on a connection (connections are kept, CONN_MAX_AGE), only executed
after. Nothing else is prepared: the connection's automatic preparation stays off.

It goes through Django's cursor wrapper, so database errors are Django's (a lost
connection answers 503, unavailable.py) and the tests' query counts see it. On SQLite
it is an ordinary query.
"""

from __future__ import annotations

from typing import Any

import psycopg
from django.db import connection

from .raw import wrapped

# psycopg prepares a statement after this many runs unless asked: never, here.
_NEVER = 2**31 - 1


class _Prepared(psycopg.Cursor):
    """Binds on the server, and prepares what it runs (Django's wrapper calls
    `execute(sql, params)` and cannot ask for it)."""

    def execute(self, query, params=None, *, prepare=None, binary=None):
        return super().execute(query, params, prepare=True, binary=binary)


def prepared_row(sql: str, params: dict[str, Any]) -> tuple:
    """The first row of `sql` with `params` (named, `%(name)s`)."""
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchone()
    connection.ensure_connection()
    raw = connection.connection
    if raw.prepare_threshold is None:
        # None turns preparing off even when asked; a threshold never reached keeps
        # the automatic preparation off and lets `prepare=True` through.
        raw.prepare_threshold = _NEVER
    with wrapped(_Prepared(raw)) as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()
