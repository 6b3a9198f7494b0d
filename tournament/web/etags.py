"""If-None-Match, compared as RFC 9110 §13.1.2 says: weakly.

A poll sends back the ETag it was given. Where the answer went through a compressor
(GZipMiddleware in the embedded default, docs/decisions.md) that ETag came back weak,
`W/"…"`, for the same fingerprint; the weak comparison strips `W/` on both sides, so
the poll is still answered 304."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.http import parse_etags


def _opaque(tag: str) -> str:
    return tag.removeprefix("W/")


def etag_sent(request: HttpRequest, etag: str) -> bool:
    """Whether the request's If-None-Match names `etag` (or is `*`)."""
    sent = parse_etags(request.headers.get("If-None-Match", ""))
    return "*" in sent or _opaque(etag) in {_opaque(tag) for tag in sent}
