"""The OpenAPI schema generator (its own module: drf-spectacular imports DRF's generics,
which import the pagination class named in settings), and the one pass over the
finished schema that makes a client generated from it read well and work
(docs/api.md):

- every error an operation can give, in the one error shape (docs/api.md, "Errors"):
  400 with field errors, `Error` (`{detail, code, …parameters}`) for the others,
  `StaleVersion` (with `current_version`) for a score sheet's 409;
- the headers: `Idempotency-Key` on every write, `If-None-Match` and `ETag` (and 304)
  on the reads that answer an ETag;
- no `default` in a PATCH body: a generated model would fill it in and send it, and
  a PATCH of one field would change others.

Operation ids are not here: each view names its own beside its code,
`extend_schema(operation_id="deal_create", …)` on each method, `<entity>_<verb>` so
that a generated client's functions are named for what they do; `Schema` warns of an
operation that names none (tests/tournament/apis/test_schema_client.py fails on it).
"""

from __future__ import annotations

import copy
from typing import Any

from drf_spectacular.drainage import warn
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from rest_framework import permissions

# Where an error is less general than "every write" or "every operation".
THROTTLED = {"token_create"}  # django-axes: 429 after failed logins (docs/security.md)
CONFLICTING_READS = {"export_download"}  # 409 export_not_ready
SENDS_TO_WORKER = {"export_create", "workbook_download"}  # 503 worker_unavailable
TOKEN = {"token_create", "token_delete"}  # no state to conflict with
PAGING = {"page", "page_size"}  # a page past the last is 404, a bad size ignored

WRITES = ("post", "put", "patch", "delete")
SHEET_WRITES = "/api/v1/matches/{id}/"  # the writes that keep an Idempotency-Key

ERROR = {"$ref": "#/components/schemas/Error"}
ERROR_COMPONENTS: dict[str, dict[str, Any]] = {
    "Error": {
        "type": "object",
        "description": "Every error but bad input: a sentence, "
        "a stable snake_case code, and the "
        "parameters of that code, such as `current_version` of `stale_version`, "
        "`limit` of `body_too_large`, `field` of a refusal about one field, "
        "`error_id` of `server_error`.",
        "properties": {
            "detail": {"type": "string", "description": "What happened, in words."},
            "code": {"type": "string", "description": "Stable, snake_case."},
        },
        "required": ["detail", "code"],
        "additionalProperties": True,
    },
    "ValidationErrors": {
        "type": "object",
        "description": "Bad input: every wrong field with its messages; nothing was "
        "written. A nested field's errors nest (`captain` → `state`), a list's are "
        "keyed by position; `non_field_errors` holds what no one field is at fault "
        "for.",
        "additionalProperties": {
            "anyOf": [
                {"type": "array", "items": {"type": "string"}},
                {"type": "object", "additionalProperties": True},
            ]
        },
    },
    "StaleVersion": {
        "type": "object",
        "description": "The sheet changed since the version sent: nothing was "
        "saved. Read the sheet again (`current_version` is its version now) and "
        "send the write again with it, unless the sheet already has it.",
        "properties": {
            "detail": {"type": "string"},
            "code": {"type": "string", "enum": ["stale_version"]},
            "current_version": {"type": "integer"},
            "version": {"type": "integer", "description": "The version sent."},
        },
        "required": ["detail", "code", "current_version"],
        "additionalProperties": True,
    },
}


def _answer(description: str, schema: dict, **headers: str) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "description": description,
        "content": {"application/json": {"schema": schema}},
    }
    if headers:
        answer["headers"] = {
            name: {"schema": {"type": "string"}, "description": text}
            for name, text in headers.items()
        }
    return answer


RETRY_AFTER = "Seconds to wait before trying again."
ANSWERS: dict[str, dict[str, Any]] = {
    "400": _answer(
        "Bad input: `{field: [messages]}` naming every wrong field (nothing is "
        "written), or `{detail, code}` when no one field is at fault (a body that "
        "is not JSON, a request that can never be valid).",
        {
            "anyOf": [
                ERROR,
                {"$ref": "#/components/schemas/ValidationErrors"},
            ]
        },
    ),
    "401": _answer(
        "Not logged in (`not_authenticated`), or the token or link is not valid "
        "(`authentication_failed`).",
        ERROR,
    ),
    "403": _answer(
        "Your role, or your link, does not allow this (`permission_denied`); the "
        "detail says who may.",
        ERROR,
    ),
    "404": _answer(
        "No such tournament, match or object, none that you may see, or no such "
        "page of a list (`not_found`).",
        ERROR,
    ),
    "409": _answer(
        "The current state refuses it: a locked sheet, results that exist, a "
        "setting an earlier step fixed, an open dispute… (`code` says which).",
        ERROR,
    ),
    "411": _answer(
        "The body was sent in chunks, with no Content-Length (`length_required`): "
        "send it whole, with its length.",
        ERROR,
    ),
    "413": _answer(
        "The body is over the limit (`body_too_large`, with `limit` in bytes).", ERROR
    ),
    "415": _answer(
        "The body's media type is not the one this takes: `application/json`, or "
        "`multipart/form-data` for an upload (`unsupported_media_type`).",
        ERROR,
    ),
    "429": _answer(
        "Too many failed tries (`locked_out`); Retry-After says when to try again.",
        ERROR,
        **{"Retry-After": RETRY_AFTER},
    ),
    "500": _answer(
        "The server failed (`server_error`); `error_id` is in the log beside what "
        "went wrong: tell the organizer.",
        ERROR,
    ),
    "503": _answer(
        "The database does not answer (`database_unavailable`) or failed while "
        "saving (`database_error`): nothing was saved; send it again after "
        "Retry-After.",
        ERROR,
        **{"Retry-After": RETRY_AFTER},
    ),
}
STALE_OR_ERROR = {
    "anyOf": [{"$ref": "#/components/schemas/StaleVersion"}, ERROR],
}
NOT_MODIFIED = "Nothing changed since the ETag sent in If-None-Match: no body."
ETAG = {
    "schema": {"type": "string"},
    "description": "Send it back in If-None-Match to be answered 304 while the "
    "answer is still the same.",
}


def idempotency_key(sheet_write: bool) -> dict[str, Any]:
    if sheet_write:
        what = (
            "A write done before under this key is not done again: it is answered "
            "with what it made (200, `Idempotent-Replayed: true`), checked before "
            "the version, so a retry after a lost answer is safe."
        )
    else:
        what = (
            "Taken on every write, so that a client sends it the same way "
            "everywhere; only a score sheet's writes (under /matches/{id}/) keep "
            "keys so far. Here a repeat is done again (a repeated create is refused "
            "by the name or slug the first one took)."
        )
    return {
        "in": "header",
        "name": "Idempotency-Key",
        "required": False,
        "schema": {"type": "string", "minLength": 1, "maxLength": 100},
        "description": "1 to 100 printable ASCII characters (a UUID, say), the same "
        "on every retry of one request. " + what,
    }


def postprocess(result, generator, request, public, **kwargs):
    """drf-spectacular's last step (settings.SPECTACULAR_SETTINGS)."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(copy.deepcopy(ERROR_COMPONENTS))
    patched: dict[str, str] = {}
    for path, item in result.get("paths", {}).items():
        for method, operation in item.items():
            if method not in (*WRITES, "get"):
                continue
            _headers(operation, method, path)
            _errors(operation, method, path, schemas)
            if method == "patch":
                _no_defaults(operation, schemas, patched)
    return result


def _headers(operation: dict, method: str, path: str) -> None:
    parameters = operation.setdefault("parameters", [])
    names = {(p["in"], p["name"]) for p in parameters}
    if method in WRITES and ("header", "Idempotency-Key") not in names:
        parameters.append(idempotency_key(path.startswith(SHEET_WRITES)))
    if ("header", "If-None-Match") in names:
        responses = operation["responses"]
        responses.setdefault("304", {"description": NOT_MODIFIED})
        for code in ("200", "304"):
            responses[code].setdefault("headers", {})["ETag"] = ETAG
    if not parameters:
        del operation["parameters"]


def _errors(operation: dict, method: str, path: str, schemas: dict) -> None:
    name = operation["operationId"]
    write = method in WRITES
    secured = bool(operation.get("security"))
    parameters = operation.get("parameters", [])
    query = {p["name"] for p in parameters if p["in"] == "query"}
    located = any(p["in"] == "path" for p in parameters)
    # A body is read (415 for another media type) where one is declared, and by
    # every sheet write (a DELETE's version, a replay's deal number).
    reads_body = "requestBody" in operation or (write and path.startswith(SHEET_WRITES))
    codes = {
        "400": (write and name != "token_delete") or bool(query - PAGING),
        "401": secured,
        "403": secured,
        "404": located or "page" in query,
        "409": (write and name not in TOKEN) or name in CONFLICTING_READS,
        "411": reads_body,
        "413": write,
        "415": reads_body,
        "429": name in THROTTLED,
        "500": True,
        "503": True,
    }
    responses = operation["responses"]
    for code, may in codes.items():
        if may and code not in responses:
            responses[code] = copy.deepcopy(ANSWERS[code])
    if name in SENDS_TO_WORKER:
        responses["503"]["description"] += (
            " Or `worker_unavailable`: the worker's queue cannot be reached, so the "
            "build was not started (its job, `job`, is kept as failed); ask again "
            "after Retry-After."
        )
    if write and _takes_version(operation, schemas) and "409" in responses:
        responses["409"]["content"]["application/json"]["schema"] = STALE_OR_ERROR
        responses["409"]["description"] += (
            " `stale_version` (StaleVersion) when the version sent is not the "
            "sheet's: `current_version` says which is."
        )


def _takes_version(operation: dict, schemas: dict) -> bool:
    """A sheet write that carries the sheet's `version` (in its body or query)."""
    if any(p["name"] == "version" for p in operation.get("parameters", [])):
        return True
    for media in operation.get("requestBody", {}).get("content", {}).values():
        schema = media.get("schema", {})
        ref = schema.get("$ref", "")
        if ref:
            schema = schemas.get(ref.rsplit("/", 1)[-1], {})
        if "version" in schema.get("properties", {}):
            return True
    return False


def _no_defaults(operation: dict, schemas: dict, patched: dict[str, str]) -> None:
    """A PATCH body's schema, and the schemas it nests, without a `default`: the
    server applies none to a partial update, and a client must not either."""
    for media in operation.get("requestBody", {}).get("content", {}).values():
        media["schema"] = _without_defaults(media["schema"], schemas, patched)


def _without_defaults(schema: Any, schemas: dict, patched: dict[str, str]) -> Any:
    if isinstance(schema, list):
        return [_without_defaults(s, schemas, patched) for s in schema]
    if not isinstance(schema, dict):
        return schema
    ref = schema.get("$ref", "")
    if ref.startswith("#/components/schemas/"):
        name = ref.rsplit("/", 1)[-1]
        if name not in patched and not _has_default(schemas[name], schemas, set()):
            return schema
        if name not in patched:
            # Its own copy when a non-PATCH body shares it (PATCH bodies are
            # drf-spectacular's own `Patched…` components).
            target = name if name.startswith("Patched") else f"Patched{name}"
            patched[name] = target
            schemas[target] = _without_defaults(
                copy.deepcopy(schemas[name]), schemas, patched
            )
        return {**schema, "$ref": f"#/components/schemas/{patched[name]}"}
    cleaned = {k: v for k, v in schema.items() if k != "default"}
    for key in ("properties", "patternProperties"):
        if key in cleaned:
            cleaned[key] = {
                k: _without_defaults(v, schemas, patched)
                for k, v in cleaned[key].items()
            }
    for key in ("items", "additionalProperties", "allOf", "anyOf", "oneOf"):
        if key in cleaned:
            cleaned[key] = _without_defaults(cleaned[key], schemas, patched)
    return cleaned


def _has_default(schema: Any, schemas: dict, seen: set[str]) -> bool:
    if isinstance(schema, list):
        return any(_has_default(s, schemas, seen) for s in schema)
    if not isinstance(schema, dict):
        return False
    ref = schema.get("$ref", "")
    if ref.startswith("#/components/schemas/"):
        name = ref.rsplit("/", 1)[-1]
        if name in seen:
            return False
        seen.add(name)
        return _has_default(schemas[name], schemas, seen)
    return (
        "default" in schema
        or any(
            _has_default(v, schemas, seen)
            for k, v in schema.items()
            if k in ("items", "additionalProperties", "allOf", "anyOf", "oneOf")
        )
        or any(
            _has_default(v, schemas, seen)
            for k in ("properties", "patternProperties")
            for v in schema.get(k, {}).values()
        )
    )


class LinkAuthenticationScheme(OpenApiAuthenticationExtension):
    """`Authorization: Link <key>` in the schema (docs/links.md); registered when
    this module is imported, as the schema class is."""

    target_class = "tournament.web.links.LinkAuthentication"
    name = "linkAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Link <key>`: the key of a table's or a team's link. It "
            "reaches only that table's sheets, or that team's check-in, "
            "confirmations and disputes.",
        }


class Schema(AutoSchema):
    """Names a view's nested `InputSerializer`/`OutputSerializer` after the view
    (`TeamDetailApi.InputSerializer` → `TeamDetailInput`), so that components of the
    HackSoft layout do not collide in the OpenAPI schema; says that reads open to
    everyone need no credentials; warns of an operation whose view names no id."""

    def get_operation_id(self):
        """Reached only where the view's method names no `operation_id`: every one
        does, so that a generated client's names never follow a path's words."""
        warn(
            f"{type(self.view).__name__}.{self.method.lower()} names no operation id: "
            'give it extend_schema(operation_id="<entity>_<verb>").'
        )
        return super().get_operation_id()

    def get_auth(self):
        auths = super().get_auth()
        open_read = self.method in permissions.SAFE_METHODS and any(
            type(p).__name__ == "ReadOnlyOrAuthenticated"
            for p in self.view.get_permissions()
        )
        if open_read and {} not in auths:
            auths.append({})
        return auths

    def get_serializer_name(self, serializer, direction):
        qualname = type(serializer).__qualname__
        if "." in qualname:
            outer, inner = qualname.rsplit(".", 1)
            return outer.removesuffix("Api") + inner.removesuffix("Serializer")
        return super().get_serializer_name(serializer, direction)
