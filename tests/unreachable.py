"""The database out of reach for a whole request (tournament/web/unavailable.py): the
connection is closed first, so the request must open one, and opening one is refused,
as when PostgreSQL is stopped or restarting. Tests that use it run with
`django_db(transaction=True)`: a test's own transaction would keep its connection.

The test client must not raise what Django turns into an answer
(`raise_request_exception = False`), as no server does."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

from django.db import OperationalError, connection
from django.db.backends.base.base import BaseDatabaseWrapper

REFUSED = (
    'connection to server at "127.0.0.1", port 5432 failed: Connection refused\n'
    "\tIs the server running on that host and accepting TCP/IP connections?"
)


@contextmanager
def database_down() -> Iterator[mock.Mock]:
    """Every connection refused while the block runs; the mock counts the tries."""
    connection.close()

    def refused(self):
        raise OperationalError(REFUSED)

    with mock.patch.object(
        BaseDatabaseWrapper, "connect", autospec=True, side_effect=refused
    ) as tries:
        yield tries


def outage_lines(records: list[logging.LogRecord]) -> list[logging.LogRecord]:
    """The warnings that say the database could not be reached."""
    return [r for r in records if r.name == "tournament.database"]


def assert_logged_once(records: list[logging.LogRecord], status: int = 503) -> None:
    """One request's records: one warning without a traceback, its access line with
    `status`, and no error of Django's (with its traceback) beside them."""
    outage = outage_lines(records)
    assert len(outage) == 1, [r.getMessage() for r in records]
    assert outage[0].levelno == logging.WARNING
    assert "database unavailable" in outage[0].getMessage()
    assert not [r for r in records if r.exc_info], [r.getMessage() for r in records]
    assert not [r for r in records if r.name == "django.request"]
    access = [r for r in records if r.name == "fiftysix.request"]
    assert [r.status for r in access] == [status]  # type: ignore[attr-defined]
