"""Every answer under /api/ is JSON, whatever happens (docs/api.md, "Errors").

`ApiErrors` is the outermost middleware. For a request under /api/ it

- refuses, before any view runs, what is past the limits of the settings (headers,
  query parameters, the body's declared size, a body without a length): 431, 400,
  413, 411, each naming the limit in words;
- answers an exception that escapes a view as JSON: 400 for a body or form that
  cannot be read, 413 for one too large, 404, 403, 503 `database_unavailable` while
  the database cannot be reached (unavailable.py, which also answers one raised in
  a middleware), and for anything else 500 with an `error_id` that is also in the
  log beside the traceback (never sent);
- turns any other answer of 400 or more that is not JSON (Django's 404 for an unknown
  address, its 400 page, the debug pages) into JSON of the same status.

The pages keep their HTML error pages (templates/400.html, 403, 404, 500).
"""

from __future__ import annotations

import logging
import uuid

from django.conf import settings
from django.core.exceptions import (
    BadRequest,
    PermissionDenied,
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.db import DataError
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    JsonResponse,
    UnreadablePostError,
)
from django.http.multipartparser import MultiPartParserError

from tournament.web.answers import API, GENERIC, NUMBER_OUT_OF_RANGE, api_error
from tournament.web.parsers import words
from tournament.web.unavailable import answer, unreachable

logger = logging.getLogger("tournament.api")


def server_error(request: HttpRequest, error: BaseException | None) -> JsonResponse:
    """500 with an id that the log has too (with the traceback, which the answer
    never carries)."""
    error_id = uuid.uuid4().hex[:12]
    request.error_id = error_id  # the request's log line names it too
    logger.error(
        "server error %s: %s %s",
        error_id,
        request.method,
        request.path,
        exc_info=(type(error), error, error.__traceback__) if error else None,
    )
    return api_error(
        500,
        f"The server failed to answer this request. Tell the organizer the error id "
        f"{error_id}.",
        "server_error",
        error_id=error_id,
    )


def _headers_size(meta: dict) -> int:
    return sum(len(k) + len(str(v)) for k, v in meta.items() if k.startswith("HTTP_"))


class ApiErrors:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(API):
            return self.get_response(request)
        refused = self.refuse(request)
        if refused is not None:
            return refused
        return self.as_json(request, self.get_response(request))

    @staticmethod
    def refuse(request: HttpRequest) -> HttpResponse | None:
        """What is past the limits, before any view (or Django) reads it."""
        meta = request.META
        most = settings.API_HEADERS_MAX_BYTES
        if _headers_size(meta) > most:
            return api_error(
                431,
                f"The request's headers are larger than {words(most)} in all.",
                "headers_too_large",
            )
        query = meta.get("QUERY_STRING", "")
        most = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
        if query and query.count("&") + 1 > most:
            return api_error(
                400,
                f"The query has more than {most:,} parameters.",
                "too_many_parameters",
            )
        if "chunked" in meta.get("HTTP_TRANSFER_ENCODING", "").lower():
            return api_error(
                411,
                "Send the body with a Content-Length, not in chunks.",
                "length_required",
            )
        declared = meta.get("CONTENT_LENGTH") or "0"
        try:
            length = int(declared)
        except ValueError:
            length = -1
        if length < 0:
            return api_error(
                400, "The Content-Length is not a number of bytes.", "bad_length"
            )
        upload = meta.get("CONTENT_TYPE", "").startswith("multipart/")
        most = settings.API_UPLOAD_MAX_BYTES if upload else settings.API_JSON_MAX_BYTES
        if length > most:
            what = "an upload" if upload else "a JSON body"
            return api_error(
                413,
                f"The body is larger than {words(most)}, the most {what} may be.",
                "body_too_large",
                limit=most,
            )
        return None

    def process_exception(self, request: HttpRequest, error: Exception):
        if not request.path.startswith(API):
            return None
        if isinstance(error, RequestDataTooBig):
            most = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            return api_error(
                413, f"The body is larger than {words(most)}.", "body_too_large"
            )
        if isinstance(error, TooManyFieldsSent | TooManyFilesSent):
            most = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
            return api_error(
                400,
                f"The request has more than {most:,} fields or parameters.",
                "too_many_fields",
            )
        if isinstance(error, UnreadablePostError | MultiPartParserError):
            return api_error(
                400, f"The body cannot be read: {error}", "unreadable_body"
            )
        if isinstance(error, RecursionError):
            depth = settings.API_JSON_MAX_DEPTH
            return api_error(
                400, f"The body nests deeper than {depth} levels.", "too_deep"
            )
        if unreachable(error):
            return answer(request, error)
        if isinstance(error, OverflowError | DataError):
            return api_error(400, NUMBER_OUT_OF_RANGE, "number_out_of_range")
        if isinstance(error, Http404):
            return api_error(404, *reversed(GENERIC[404]))
        if isinstance(error, PermissionDenied):
            return api_error(403, *reversed(GENERIC[403]))
        if isinstance(error, BadRequest | SuspiciousOperation):
            return api_error(400, *reversed(GENERIC[400]))
        return server_error(request, error)

    @staticmethod
    def as_json(request: HttpRequest, response: HttpResponse) -> HttpResponse:
        kind = response.get("Content-Type", "")
        if response.status_code < 400 or kind.startswith("application/json"):
            return response
        if response.status_code >= 500:
            answer = server_error(request, None)
        else:
            code, detail = GENERIC.get(
                response.status_code, ("error", "The request was refused.")
            )
            if response.status_code == 404:
                detail = f"There is no such address in the API: {request.path}"
            answer = api_error(response.status_code, detail, code)
        for header in ("Allow", "Retry-After", "WWW-Authenticate"):
            if header in response:
                answer[header] = response[header]
        return answer
