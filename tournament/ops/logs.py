"""Logs that keep no key (docs/security.md, "Logs"): one JSON line per request and
per error in production, plain lines in development, and in both every link key,
invitation key, password-reset token and API token cut to its first 4 characters
wherever a path, header or message names it.

A key in a log is as good as the link: whoever reads the log could score that table
or confirm for that team. So the cut happens in a filter on every handler, whatever
logger wrote the line (Django's `django.request` and `django.security.csrf`, the
development server's `django.server`, gunicorn's, Celery's, ours), before any
formatter sees it.

What a process writes outside logging is brought into it in production, so that
every line is one JSON object: an uncaught exception (`configure`), a management
command's output (`LinesToLog`, for deploy/migrate), and Celery's words on its
shutdown (`say`, tournament/config/celery.py).
"""

from __future__ import annotations

import io
import json
import logging
import logging.config
import os
import re
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from datetime import UTC, datetime

from django.db import DatabaseError, InterfaceError

# Path segments that are secrets, and the segment before each: a table's or team's
# link (/l/<key>/…), an invitation (/invitations/<key>/), a password reset
# (/accounts/password/reset/<uid>/<token>/; Django's own "set-password" is not one).
_SECRET_PATHS = re.compile(
    r"(?P<before>/l/|/invitations/|/password/reset/[A-Za-z0-9_-]+/)"
    r"(?!set-password\b)(?P<key>[A-Za-z0-9_-]{5,})"
)
# Credentials in a header as it may be quoted: `Authorization: Token <key>`,
# `Link <key>`, `Bearer <key>`; and a value named a key or a token: `key=`/`token=`
# in a query, `'link_key': '…'` in a dict's repr (a task's arguments, a template's
# context), `"token": "…"` in JSON.
_SECRET_WORDS = re.compile(
    r"(?P<before>\b(?:Token|Link|Bearer)\s+"
    r"|\b(?:\w*[_-])?(?:key|token)['\"]?\s*[:=]\s*['\"]?)"
    r"(?P<key>[A-Za-z0-9_.~+/=-]{5,})",
    re.IGNORECASE,
)
KEPT = 4  # characters of a key left to tell two apart


def _cut(match: re.Match[str]) -> str:
    return f"{match['before']}{match['key'][:KEPT]}…"


def redact(text: str) -> str:
    """`text` with every key it carries cut to its first characters."""
    return _SECRET_WORDS.sub(_cut, _SECRET_PATHS.sub(_cut, text))


# The request being answered, for every line written meanwhile.
request_id: ContextVar[str] = ContextVar("request_id", default="")
_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


class RedactKeys(logging.Filter):
    """Cuts the keys out of a record's message, its path and its traceback, and
    stamps it with the request's id."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        record.msg, record.args = redact(message), ()
        path = getattr(record, "path", None)
        if isinstance(path, str):
            record.path = redact(path)
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if not getattr(record, "request_id", ""):
            record.request_id = request_id.get()
        return True


# Fields of a request's line, when the record has them.
_FIELDS = ("request_id", "method", "path", "status", "ms", "user_id", "error_id")


class JsonLines(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the request's
    fields, and the traceback (as one string) of an error."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in _FIELDS:
            value = getattr(record, name, None)
            if value not in (None, ""):
                line[name] = value
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["exc"] = record.exc_text
        return json.dumps(line, ensure_ascii=False, default=str)


def configure(config: dict) -> None:
    """Django's LOGGING_CONFIG: the settings' LOGGING; and in production's format an
    uncaught exception, of the main thread or another, is logged (CRITICAL, its
    traceback in the line's `exc`, keys cut) and so is a Python warning (`py.warnings`),
    instead of either being printed on many lines."""
    logging.config.dictConfig(config)
    from django.conf import settings

    if getattr(settings, "LOG_FORMAT", "text") == "json":
        sys.excepthook = _uncaught
        threading.excepthook = _uncaught_in_thread
        logging.captureWarnings(True)


uncaught = logging.getLogger("fiftysix.uncaught")


def _uncaught(kind, value, traceback) -> None:
    if issubclass(kind, KeyboardInterrupt):  # Ctrl+C at a command: as Python says it
        sys.__excepthook__(kind, value, traceback)
        return
    uncaught.critical(
        "uncaught %s: %s", kind.__name__, value, exc_info=(kind, value, traceback)
    )


def _uncaught_in_thread(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is SystemExit:  # a thread that exits says nothing, as in Python
        return
    uncaught.critical(
        "uncaught %s in thread %s: %s",
        args.exc_type.__name__,
        args.thread.name if args.thread else "?",
        args.exc_value,
        exc_info=(args.exc_type, args.exc_value, args.exc_traceback),
    )


class LinesToLog(io.TextIOBase):
    """A text stream whose every line is logged by `logger` at `level`: the output
    of a management command (migrate's "Applying … OK") as lines of the log."""

    def __init__(self, logger: logging.Logger, level: int = logging.INFO) -> None:
        super().__init__()
        self.logger, self.level, self.partial = logger, level, ""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        *lines, self.partial = (self.partial + text).split("\n")
        for line in lines:
            if line.strip():
                self.logger.log(self.level, "%s", line.strip())
        return len(text)

    def close(self) -> None:
        self.write("\n")  # a last line without its end is logged too
        super().close()


def say(message: str, f=sys.__stderr__) -> None:
    """Celery's `safe_say` (its words on a shutdown or a restart, written straight
    to a stream from a signal handler) as one line of the log: formatted here and
    written at once, holding no lock."""
    record = logging.makeLogRecord(
        {
            "name": "celery.apps.worker",
            "levelno": logging.WARNING,
            "levelname": "WARNING",
            "msg": message.strip(),
        }
    )
    RedactKeys().filter(record)
    with suppress(OSError, ValueError):  # nowhere to write it: lost, as Celery's own
        os.write(f.fileno(), (JsonLines().format(record) + "\n").encode())


access = logging.getLogger("fiftysix.request")


class RequestLog:
    """One line per request (method, path without keys, status, ms, user id, the
    request's id, and a 500's error id), and `X-Request-ID` on the answer. The id
    is the proxy's `X-Request-ID` when it sends a plausible one."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        sent = request.headers.get("X-Request-ID", "")
        rid = sent if _REQUEST_ID.fullmatch(sent) else uuid.uuid4().hex[:16]
        token = request_id.set(rid)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
        finally:
            request_id.reset(token)
        ms = round((time.perf_counter() - started) * 1000, 1)
        response["X-Request-ID"] = rid
        level = logging.ERROR if response.status_code >= 500 else logging.INFO
        if not access.isEnabledFor(level):  # development: the server prints its own
            return response
        fields = {
            "request_id": rid,
            "method": request.method,
            "path": redact(request.get_full_path()),
            "status": response.status_code,
            "ms": ms,
            "user_id": _user_id(request),
            "error_id": getattr(request, "error_id", None),
        }
        access.log(
            level,
            "%s %s %s %sms",
            fields["method"],
            fields["path"],
            fields["status"],
            ms,
            extra=fields,
        )
        return response


def _user_id(request) -> int | None:
    """The signed-in user's id, or None; None too when the user could not be read
    (the session is in a database that does not answer: tournament/web/unavailable.py),
    so that the line is still written, with its 503."""
    user = getattr(request, "user", None)
    try:
        return user.pk if user is not None and user.is_authenticated else None
    except (DatabaseError, InterfaceError):
        return None


# Celery's eager tasks (no broker: the development default) log one INFO line each,
# "Task tournament.sheet_copy_keep[…] succeeded in 0.04s", and kombu warns once per
# process that no broker host is set: loading the demo wrote 150 such lines around
# its logins. While a demo loads they are held to these levels; errors still print.
QUIET_WHILE_DEMO = {
    "celery.app.trace": logging.WARNING,
    "kombu.connection": logging.ERROR,
}


@contextmanager
def tasks_quiet() -> Iterator[None]:
    """Hold the loggers of QUIET_WHILE_DEMO to their levels for a `with` block."""
    levels = {}
    for name, level in QUIET_WHILE_DEMO.items():
        logger = logging.getLogger(name)
        levels[name] = logger.level
        if logger.getEffectiveLevel() < level:
            logger.setLevel(level)
    try:
        yield
    finally:
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)
