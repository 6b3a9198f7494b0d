"""What keeps the site safe beyond Django's own middleware (docs/security.md): the
content security policy on every answer, and the answer to a locked-out login."""

from __future__ import annotations

from django.conf import settings
from django.db import DataError
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    JsonResponse,
)
from django.shortcuts import render

from .apis_common import NUMBER_OUT_OF_RANGE  # the pages say what the API says


class ContentSecurityPolicy:
    """Sends settings.CONTENT_SECURITY_POLICY on every answer that has none: scripts,
    styles, images and requests from this site only, no frames, no plugins. Report
    only while DEBUG (the debug pages inline their scripts and styles)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response
        self.header = (
            "Content-Security-Policy-Report-Only"
            if settings.CONTENT_SECURITY_POLICY_REPORT_ONLY
            else "Content-Security-Policy"
        )
        self.policy = "; ".join(
            f"{name} {' '.join(sources)}"
            for name, sources in settings.CONTENT_SECURITY_POLICY.items()
        )

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if self.policy and self.header not in response:
            response[self.header] = self.policy
        return response


def client_address(request) -> str | None:
    """The client's address, for the login lockout: the connection's, or behind
    TRUSTED_PROXIES proxies the entry of X-Forwarded-For that the outermost of them
    wrote (each appends the address it received from; what the client itself sent is
    further left and is never believed)."""
    remote = request.META.get("REMOTE_ADDR")
    proxies = settings.TRUSTED_PROXIES
    if not proxies:
        return remote
    forwarded = [
        address.strip()
        for address in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if address.strip()
    ]
    return forwarded[-proxies] if len(forwarded) >= proxies else remote


def locked_out(request, original_response=None, credentials=None) -> HttpResponse:
    """django-axes: too many failed logins for this username from this address. The
    API answers JSON, the pages a page; both 429 with Retry-After."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    message = (
        f"Too many failed logins for this username from here: try again in "
        f"{minutes} minutes, or ask an organizer to reset your password."
    )
    retry = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"detail": message, "code": "locked_out"}, status=429
        )
    else:
        response = render(
            request,
            "registration/locked_out.html",
            {"message": message, "minutes": minutes},
            status=429,
        )
    response["Retry-After"] = retry
    return response


class NumbersOutOfRange:
    """A page given a number past what the database holds (`?round=` of 30 digits,
    a form's hidden id) answers 400, not a server error."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):
        if request.path.startswith("/api/"):
            return None  # the API answers JSON (tournament.api_errors)
        if isinstance(exception, OverflowError | DataError):
            return HttpResponseBadRequest(
                NUMBER_OUT_OF_RANGE, content_type="text/plain"
            )
        return None
