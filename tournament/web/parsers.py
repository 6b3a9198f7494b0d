"""The API's JSON parser: DRF's, with the body's size and nesting held to limits
before the body is parsed (docs/security.md, "Hostile requests").

Python's json module parses nesting by recursion: a 200 KB body of `[[[[…` ends in a
RecursionError, a server error. Here the nesting is counted first, by one scan that
skips strings and stops at the first bracket past the limit, so a deep body costs
microseconds and is answered 400 naming the limit.
"""

from __future__ import annotations

import re

from django.conf import settings
from rest_framework import exceptions, parsers, status
from rest_framework.utils import json  # NaN and Infinity refused

_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


class BodyTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "body_too_large"


def nesting_depth_past(text: str, limit: int) -> bool:
    """Whether the JSON text nests arrays and objects deeper than `limit`."""
    depth = 0
    for token in _TOKENS.finditer(text):
        bracket = token.group()
        if bracket in "[{":
            depth += 1
            if depth > limit:
                return True
        elif bracket in "]}":
            depth -= 1
    return False


def words(size: int) -> str:
    """A byte count as people say it: 1 MB, 64 KB, 512 bytes."""
    for unit, scale in (("MB", 1024 * 1024), ("KB", 1024)):
        if size >= scale:
            return f"{size / scale:g} {unit}"
    return f"{size} bytes"


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.API_JSON_MAX_BYTES
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise BodyTooLarge(
                f"The body is larger than {words(limit)}, the most a JSON body may be."
            )
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise exceptions.ParseError(
                f"JSON parse error - the body is not UTF-8 (byte {error.start})."
            ) from None
        depth = settings.API_JSON_MAX_DEPTH
        if nesting_depth_past(text, depth):
            raise exceptions.ParseError(
                f"JSON parse error - the body nests deeper than {depth} levels."
            )
        try:
            return json.loads(text)
        except (ValueError, RecursionError) as error:
            raise exceptions.ParseError(f"JSON parse error - {error}") from None
