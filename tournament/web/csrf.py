"""The page a form gets when its CSRF check fails (settings.CSRF_FAILURE_VIEW): the
site's own 403 page, in the visitor's language, saying why in words a person can act
on (the form was open too long, cookies are refused, it came from another address)
instead of Django's bare page (docs/security.md)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware import csrf
from django.shortcuts import render
from django.utils.translation import gettext


def _why(reason: str) -> str:
    if reason == csrf.REASON_NO_CSRF_COOKIE:
        return gettext(
            "Your browser did not send this site's cookie, which a form needs: allow "
            "cookies for this site (a private window or a blocker may refuse them)."
        )
    if reason.startswith(("Origin checking failed", "Referer checking failed")) or (
        reason
        in (
            csrf.REASON_NO_REFERER,
            csrf.REASON_MALFORMED_REFERER,
            csrf.REASON_INSECURE_REFERER,
        )
    ):
        return gettext(
            "The form was sent from another address than this site's, or your browser "
            "hid where it came from: open the page at this site's own address."
        )
    return gettext(
        "The form was open too long, or you signed in or out in another tab since it "
        "was opened, so its security check no longer matches."
    )


def _wants_data(request: HttpRequest) -> bool:
    """An htmx request, or a script asking for JSON: it reads a code, not a page."""
    accept = request.headers.get("Accept", "")
    return request.headers.get("HX-Request") == "true" or (
        "application/json" in accept and "text/html" not in accept
    )


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    if _wants_data(request):
        # The score page's scripts (static/js/csrf.js, static/js/score/) read the code,
        # fetch a fresh cookie and send the same request again once: nothing was
        # done, so sending it again can double nothing.
        return JsonResponse(
            {
                "code": "csrf_failed",
                "detail": _why(reason),
                "reason": "no_cookie"
                if reason == csrf.REASON_NO_CSRF_COOKIE
                else "token",
            },
            status=403,
        )
    return render(
        request,
        "403_csrf.html",
        {"why": _why(reason), "again": request.get_full_path()},
        status=403,
    )
