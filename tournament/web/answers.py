"""The JSON every API error answers with: `{detail, code, …}` and its status
(docs/api.md, "Errors"), and the words of the generic ones. The lowest module of the
web platform: the error middleware (errors.py), the answer while the database is
away (unavailable.py) and what every API shares (api.py) all answer through it."""

from __future__ import annotations

from django.http import JsonResponse

API = "/api/"

GENERIC = {
    400: ("bad_request", "The request is malformed and cannot be read."),
    401: ("not_authenticated", "Log in, or send a token, to do this."),
    403: ("permission_denied", "You may not do this."),
    404: ("not_found", "There is no such address in the API."),
    405: ("method_not_allowed", "This address does not take this method."),
    406: ("not_acceptable", "The API answers JSON only."),
    408: ("request_timeout", "The request was not received in time."),
    411: ("length_required", "Send the body with a Content-Length."),
    413: ("body_too_large", "The body is too large."),
    415: ("unsupported_media_type", "The body's media type is not one this takes."),
    429: ("throttled", "Too many requests; wait and try again."),
    431: ("headers_too_large", "The request's headers are too large."),
}


def api_error(status: int, detail: str, code: str, **extra) -> JsonResponse:
    return JsonResponse({"detail": detail, "code": code, **extra}, status=status)


NUMBER_OUT_OF_RANGE = (
    "A number in this request is too large to be an id, a round or a count here."
)
