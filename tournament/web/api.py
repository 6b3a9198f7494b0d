"""What every API of the project shares: pagination, errors, and who may do what.

Errors: a `RuleError` from the domain or a service becomes 400 (409 for a
`ConflictError`, 403 for a `ForbiddenError`). A 400 is shaped as DRF shapes validation
errors: `{"field": ["message"]}`, nested for dotted fields (`captain.state` →
`{"captain": {"state": [...]}}`), or `{"detail": ..., "code": ...}` when no field is at
fault; every other status is `{"detail", "code", …parameters}` (with `field` when it
names one), as the schema's `Error` says (web/schema.py). A database that cannot be
reached (down, or the connection lost mid-request) is 503 `database_unavailable`
(unavailable.py), any other database failure mid-write 503 `database_error`, both
with Retry-After: the service's transaction was rolled back, so nothing was saved.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DatabaseError, DataError, IntegrityError
from django.db.models import ProtectedError
from django.http import Http404, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import exceptions, permissions, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tournament.db.raw import mark_logged
from tournament.domain.errors import RuleError, RuleErrors
from tournament.domain.types import Role
from tournament.models import LinkKind, Tournament
from tournament.selectors import tournament_get_visible, tournament_roles
from tournament.web.answers import NUMBER_OUT_OF_RANGE
from tournament.web.links import link_refusal, request_link
from tournament.web.unavailable import RETRY_AFTER_SECONDS, unreachable
from tournament.web.unavailable import answer as database_unavailable
from tournament.words import refusal

logger = logging.getLogger(__name__)
ID_MAX = 2**63 - 1  # the largest id PostgreSQL's bigint and SQLite's integer hold
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def xlsx_response(content: bytes, filename: str) -> HttpResponse:
    """An .xlsx file to download (team lists, workbooks, score sheets)."""
    response = HttpResponse(content, content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


class Pagination(PageNumberPagination):
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 1000


def _put(body: dict, field: str, message: str) -> None:
    *parents, leaf = field.split(".")
    node = body
    for part in parents:
        node = node.setdefault(part, {})
    node.setdefault(leaf, []).append(message)


def asks_malayalam(request) -> bool:
    """Whether the request's Accept-Language puts Malayalam before English (a score
    page's queue asks in its page's language): its refusals are then said in
    Malayalam. Everything else the API says, and every `code`, stays English."""
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "") if request else ""
    best = {"en": -1.0, "ml": -1.0}
    for position, part in enumerate(header.split(",")[:20]):
        tag, _, rest = part.strip().partition(";")
        quality = 1.0
        if rest.strip().startswith("q="):
            try:
                quality = float(rest.strip()[2:])
            except ValueError:
                continue
        base = tag.strip().lower().split("-")[0]
        if base in best and quality > 0:
            # Equal qualities: the earlier one, as the header lists them.
            best[base] = max(best[base], quality - position * 1e-6)
    return best["ml"] > best["en"]


def rule_error_body(error: RuleError, *, malayalam: bool = False) -> dict[str, Any]:
    """The JSON body for a rule error: field-keyed where fields are known; its
    messages in Malayalam when `malayalam` (asks_malayalam), the codes the same."""
    if malayalam:
        with translation.override("ml"):
            return _rule_error_body(error, said=refusal)
    return _rule_error_body(error, said=lambda e: e.message)


def _rule_error_body(error: RuleError, *, said) -> dict[str, Any]:
    errors = error.errors if isinstance(error, RuleErrors) else [error]
    if error.status != 400 and not isinstance(error, RuleErrors):
        # 403 and 409 come in the one error shape whatever field they name (API.md,
        # Conventions): only bad input (400) is keyed by field.
        return {
            "detail": said(error),
            "code": error.code,
            **({"field": error.field} if error.field else {}),
            **_params(error, skip=("detail", "field")),
        }
    body: dict[str, Any] = {}
    for item in errors:
        if item.field:
            _put(body, item.field, said(item))
        else:
            _put(body, "detail", said(item))
    if "detail" in body and len(body) == 1:
        # A lone rule error: its code and parameters, so that a client can act on
        # them (a stale sheet version says which version is current).
        params = _params(errors[0], skip=("detail",))
        return {"detail": " ".join(body["detail"]), "code": errors[0].code, **params}
    return body


def _params(error: RuleError, skip: tuple[str, ...]) -> dict[str, Any]:
    """An error's parameters as JSON values (an object by its name)."""
    return {
        k: v if isinstance(v, int | str | list | None) else str(v)
        for k, v in error.params.items()
        if k not in skip and k != "code"
    }


# Errors from below the services, first match wins: (exception types, code, status,
# what the client is told).
REFUSALS: list[tuple[Any, str, int, str]] = [
    (
        ProtectedError,
        "protected",
        status.HTTP_409_CONFLICT,
        "This is still used elsewhere (a match, a deal or a penalty refers to it), "
        "so it cannot be deleted.",
    ),
    (
        # The services check every rule first; this is a write that raced another.
        IntegrityError,
        "conflict",
        status.HTTP_409_CONFLICT,
        "This change conflicts with one saved at the same moment; reload and try "
        "again.",
    ),
    (
        # A number past what the database holds (an id of 30 digits, say): the
        # request is wrong, not the database.
        OverflowError | DataError,
        "number_out_of_range",
        status.HTTP_400_BAD_REQUEST,
        NUMBER_OUT_OF_RANGE,
    ),
    (
        # A statement the database refused mid-write: it answers, so it is not
        # away (database_unavailable, answered before this table).
        DatabaseError,
        "database_error",
        status.HTTP_503_SERVICE_UNAVAILABLE,
        "The database failed while saving this change, and nothing was saved. Send "
        "it again; if it keeps failing, tell the organizer.",
    ),
]


def exception_handler(exc: Exception, context: dict) -> HttpResponse | None:
    if isinstance(exc, RuleError):
        malayalam = asks_malayalam(context.get("request"))
        response = Response(
            rule_error_body(exc, malayalam=malayalam), status=exc.status
        )
        response["Content-Language"] = "ml" if malayalam else "en"
        patch_vary_headers(response, ["Accept-Language"])
        return response
    if isinstance(exc, DjangoValidationError):
        detail = (
            exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        )
        return Response(detail, status=status.HTTP_400_BAD_REQUEST)
    if unreachable(exc):
        # The same answer and one warning line, wherever it was raised: DRF's
        # authentication, a view, a selector, a service (unavailable.py).
        return database_unavailable(context["request"], exc)
    for kinds, code, answer, detail in REFUSALS:
        if isinstance(exc, kinds):
            headers = None
            if answer == status.HTTP_503_SERVICE_UNAVAILABLE:
                # The service's transaction was rolled back: say so, so that a phone
                # on a flaky venue sends the change again instead of guessing.
                logger.exception("database error in %s", context.get("view"))
                headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
            body = {"detail": detail, "code": code}
            response = Response(body, answer, headers=headers)
            if headers:
                # Logged above with its traceback: not again by django.request.
                mark_logged(response)
            return response
    request = context.get("request")
    held = request_link(request) if request is not None else None
    if (
        held is not None
        and isinstance(exc, exceptions.PermissionDenied)
        and exc.detail == exceptions.PermissionDenied.default_detail
    ):
        # A refusal that does not say why: say what the link reaches instead.
        exc = exceptions.PermissionDenied(link_refusal(held))
    if isinstance(exc, Http404):
        # As DRF's handler does, but here, so that the answer gets its code below.
        exc = exceptions.NotFound(*exc.args)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    response = drf_exception_handler(exc, context)
    if (
        response is not None
        and isinstance(response.data, dict)
        and set(response.data) == {"detail"}
        and isinstance(exc, exceptions.APIException)
    ):
        # DRF's own refusals (a parse error, 401, 403, 404, 405, 415, 429) carry
        # their stable code too, as every other error does (docs/api.md, "Errors").
        codes = exc.get_codes()
        response.data["code"] = codes if isinstance(codes, str) else exc.default_code
        if isinstance(exc, exceptions.PermissionDenied) and str(exc.detail).startswith(
            "CSRF Failed"
        ):
            # A session's write without its current CSRF token (DRF's
            # SessionAuthentication): nothing was done; the page's queue fetches a
            # fresh cookie and sends it again (static/js/score/).
            response.data["code"] = "csrf_failed"
    return response


class RolesMixin:
    """`self.roles`, the caller's roles in the tournament at hand, and `require`.

    A view that a table or team link may use names the kinds in `link_kinds`; the
    scoped mixins set `link_reaches` when the link reaches what the address names
    (docs/links.md)."""

    roles: frozenset[Role]
    link_kinds: tuple[LinkKind, ...] = ()
    link_reaches = False

    def require(self, *roles: Role, link: LinkKind | None = None) -> None:
        """403 unless the caller holds one of `roles` here, or carries a link of kind
        `link` that reaches it (401 when not logged in)."""
        held = request_link(self.request)  # type: ignore[attr-defined]
        if held is not None:
            if link is not None and held.kind == link and self.link_reaches:
                return
            raise exceptions.PermissionDenied(link_refusal(held))
        if not self.request.user.is_authenticated:  # type: ignore[attr-defined]
            raise exceptions.NotAuthenticated()
        if not self.roles.intersection(roles):
            names = " or ".join(r.value for r in roles)
            raise exceptions.PermissionDenied(
                f"Only the tournament's {names} may do this."
            )


class TournamentScopedMixin(RolesMixin):
    """Loads `self.tournament` from the URL's slug, visible to the caller or 404.

    An unpublished tournament does not exist for anyone without a role in it.
    """

    tournament: Tournament

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        held = request_link(request)
        if (
            held is not None
            and held.kind in self.link_kinds
            and held.tournament.slug == kwargs["slug"]
        ):
            tournament: Tournament | None = held.tournament  # its own, published or not
        else:
            tournament = tournament_get_visible(user=request.user, slug=kwargs["slug"])
        if tournament is None:
            raise Http404("No such tournament")
        self.tournament = tournament
        self.roles = tournament_roles(user=request.user, tournament=tournament)


class ReadOnlyOrAuthenticated(permissions.BasePermission):
    """Reads are open (visibility is checked per object); writes need a login, or a
    link of a kind the view takes (its `require` then checks the link's reach)."""

    def has_permission(self, request, view) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        held = request_link(request)
        if held is not None:
            if held.kind in getattr(view, "link_kinds", ()):
                return True
            self.message = link_refusal(held)
            return False
        return bool(request.user and request.user.is_authenticated)


# Answers kept under a fingerprint (the standings, the statistics): the client sends
# back the ETag it holds and gets 304 while it is still the same.
NOT_MODIFIED = OpenApiResponse(description="Not changed since the ETag sent.")


def if_none_match(what: str) -> OpenApiParameter:
    return OpenApiParameter(
        "If-None-Match",
        str,
        OpenApiParameter.HEADER,
        required=False,
        description=f"The ETag of {what} you hold: 304 when they are still the same.",
    )
