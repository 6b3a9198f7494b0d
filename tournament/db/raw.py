"""Every way the site goes around Django's ORM through the database driver, or uses a
private Django or DRF API, in one place, each kept for a measured reason (a test,
tests/test_raw_access.py, keeps them here). Plain SQL through Django's own cursor
(`connection.cursor()`, `Manager.raw`) is public Django, and is used where it is
measured cheaper (docs/decisions.md, "Performance").

Each goes through Django's error wrapping: a driver error (psycopg's, SQLite's)
surfaces as Django's own `OperationalError`/`InterfaceError`, so a database lost
midway answers 503 (tournament/web/unavailable.py), not 500.

- `driver_cursor`: psycopg's own cursor on Django's connection, for what Django's
  cursor cannot ask of it: binary parameters and results (backups/binary.py: Django
  binds values into the statement's text, so a backup of 2 MB goes as 4 MB of hex
  for the server to parse again, about 100 ms), COPY (db/bulk.py: a ratings rebuild's
  240,000 rows, most of its time with bulk_create).
- `compiled`: the SQL and parameters Django would run for a queryset (the private
  `QuerySet.query`), so that backups/binary.py runs them on the driver's cursor with
  binary results.
- `wrapped`: Django's cursor wrapper around a cursor it did not make (the private
  `connection._prepare_cursor`), so the tests' query counts and DEBUG's log see it:
  db/prepared.py's cursor that binds on the server with a prepared plan (the
  standings' fingerprint, docs/decisions.md). Django has no public way to do it.
- `raw_delete`: one DELETE statement (the private `QuerySet._raw_delete`), no
  collection of related rows, no signals. A restore and a backup's pruning delete
  whole tournaments' rows, the sheets' history among them, whose model refuses
  `delete()` by design (scoring.models.HistoryIsWritten): the public `delete()` is
  not merely slower there, it is refused.
- `raw_insert`: rows as they are, ids and all, no save() (the private
  `Manager._insert(raw=True)`, what loaddata and save_base use): a site restore
  keeps every history row's time as written; bulk_create would run each field's
  pre_save (auto_now) and change them.
- `mark_logged`: the private `response._has_been_logged`, which Django's
  log_response reads: an answer already logged with its traceback (a 503 while the
  database is away, an API's database error) is not logged a second time.
- `django_request`: the HttpRequest under DRF's Request (DRF's `_request`, which its
  documentation names), for django-axes' lockout answer, which reads Django's.
- `permissions_forget`: Django caches a user's permissions on the user object
  (`_perm_cache`, `_user_perm_cache`, `_group_perm_cache`); a grant or a withdrawal
  must show on the same object at once (the caller's `request.user`), which reading
  the user again would not change.
- `from_row`: a model instance from a row read in plain SQL (`Model.from_db`), for
  the locked read of every sheet write (scoring/sheets/locking.py, match_locked),
  one SELECT ... FOR UPDATE OF m joining its tournament and teams. Measured against
  `select_for_update(of=("self",)).select_related("tournament", "team_a",
  "team_b")` (with and without `.only()`), best of 5 x 300 inside a transaction:
  SQLite 233-338 us plain vs 1,034-1,433 us ORM; PostgreSQL 3.5 ms plain vs 4.8-5.7
  ms ORM (both on a loaded 2-core machine, 2026): the ORM's compiler costs more than
  the query.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.db import connection
from django.db.models import Model, QuerySet
from django.http import HttpResponseBase


@contextmanager
def driver_cursor(cursor_class: type | None = None) -> Iterator[Any]:
    """The driver's own cursor (psycopg's `cursor_class`, psycopg.Cursor by default)
    on Django's connection; its errors are Django's while the block runs."""
    connection.ensure_connection()
    with connection.wrap_database_errors:
        raw = connection.connection
        cursor = cursor_class(raw) if cursor_class is not None else raw.cursor()
        with cursor:
            yield cursor


def wrapped(cursor: Any) -> Any:
    """Django's cursor wrapper (errors, query log) around a driver's cursor."""
    return connection._prepare_cursor(cursor)


def raw_delete(queryset: QuerySet) -> int:
    """Delete the rows of `queryset` in one statement: no collection, no signals."""
    return queryset._raw_delete(queryset.db)


def raw_insert(model: type[Model], objects: Sequence[Model], fields: list) -> None:
    """Insert `objects` as they are, ids and all, without save()."""
    model._base_manager._insert(objects, fields=fields, raw=True)


def mark_logged(response: HttpResponseBase) -> None:
    """Django's request log skips `response`: it was logged already."""
    response._has_been_logged = True  # type: ignore[attr-defined]


def from_row(model: type[Model], db: str, names: list[str], values: list) -> Model:
    """An instance of `model` from a row read in plain SQL (fields in model order)."""
    return model.from_db(db, names, values)


def compiled(queryset: QuerySet) -> tuple[str, tuple]:
    """The SQL and parameters Django would run for `queryset` (EmptyResultSet when
    it can match nothing)."""
    return queryset.query.sql_with_params()


def django_request(request: Any) -> Any:
    """The HttpRequest under a DRF Request."""
    return request._request


def permissions_forget(user: Any) -> None:
    """Django caches a user's permissions on the object: read them again."""
    for cached in ("_perm_cache", "_user_perm_cache", "_group_perm_cache"):
        user.__dict__.pop(cached, None)
