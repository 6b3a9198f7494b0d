"""What the site answers while its database cannot be reached (docs/security.md,
"Retries and faults"): a server restarting, a connection refused, one lost in the
middle of a request. Every request then gets 503 with `Retry-After`, and nothing of
it was saved (a transaction that lost its connection is never committed):

- under /api/, `{"detail", "code": "database_unavailable"}` (docs/api.md, "Errors"), so
  that a script, and the score page's queue (static/js/score/), sends it again;
- a page gets templates/503.html, a short page in the visitor's language that says
  to try again in a moment.

Wherever the error is raised (a view, DRF's authentication, a middleware that reads
the session such as the signed-in user or the language), it ends here: DRF's
exception handler (web/api.py), ApiErrors.process_exception for the other views
under /api/, and `server_error`, the handler500 of the URLs, for the rest: Django
turns an exception in any middleware into that handler's answer (with DEBUG on,
Django shows its debug page instead, as for any other error).

The page is rendered with no request, so no context processor reads the user or
the session; its language is the switcher's cookie or Accept-Language when the
language middleware did not get as far as the session.

Each such request logs one warning line, without a traceback (the outage is the
news, not the stack), and its access line says 503 (logs.py): the answer is marked
as logged, so Django's `django.request` does not add an error with a traceback.
Recovery needs no restart: PostgreSQL's connections are kept (CONN_MAX_AGE) and
checked (CONN_HEALTH_CHECKS, settings), so the first query of the next request finds
a dead one and opens another; SQLite's are opened for each request.
"""

from __future__ import annotations

import logging
import sqlite3
import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.utils import translation
from django.views import defaults

from tournament.db.raw import mark_logged
from tournament.web.answers import API, api_error

logger = logging.getLogger("tournament.database")

RETRY_AFTER_SECONDS = 5
DETAIL = (
    "The database does not answer just now; nothing was saved. Try again in a few "
    "seconds."
)


def unreachable(error: BaseException | None) -> bool:
    """Whether `error` says the database is away rather than refusing a statement.

    A lost or refused connection raises OperationalError or InterfaceError through
    Django's wrappers of the driver's errors: psycopg's, and PostgreSQL's shutdown,
    a statement cancelled, a deadlock, which waiting also cures; SQLite's busy or
    locked file. Other database errors (a constraint, a bad statement) are not the
    database being away: web/api.py answers them."""
    if isinstance(error, InterfaceError):
        return True
    if not isinstance(error, OperationalError):
        return False
    # SQLite says OperationalError for a statement it refuses too ("no such table"),
    # with the generic code SQLITE_ERROR; a busy, locked or unreadable file has its
    # own code.
    code = getattr(error.__cause__, "sqlite_errorcode", None)
    return code is None or code & 0xFF != sqlite3.SQLITE_ERROR


def answer(request: HttpRequest, error: BaseException) -> HttpResponse:
    """The 503 for a request that could not reach the database, logged once."""
    said = str(error).strip().splitlines()
    logger.warning(
        "database unavailable: %s %s (%s: %s)",
        request.method,
        request.path,
        type(error).__name__,
        said[0] if said else "",
    )
    if request.path.startswith(API):
        response: HttpResponse = api_error(503, DETAIL, "database_unavailable")
    else:
        response = _page(request)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    # The warning above is its log: Django's log_response skips an answer so marked.
    mark_logged(response)
    return response


def _page(request: HttpRequest) -> HttpResponse:
    # The language middleware's choice when it ran (a signed-in person's own is in
    # the session); else the cookie or Accept-Language, which need no database.
    language = getattr(request, "LANGUAGE_CODE", None) or (
        translation.get_language_from_request(request)
    )
    with translation.override(language):
        # No request: no context processor runs (they read the user and session).
        html = loader.render_to_string("503.html", {"again": request.get_full_path()})
    response = HttpResponse(html, status=503)
    response["Content-Language"] = language
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: the 503 above when the database could not be reached, else
    Django's own, which renders templates/500.html."""
    error = sys.exc_info()[1]
    if error is not None and unreachable(error):  # raised below any handler of ours
        return answer(request, error)
    return defaults.server_error(request)
