"""What keeps the site safe beyond Django's own middleware (docs/security.md): the
content security policy on every answer, the answer to a locked-out login, and the
password reset: its throttle, and its mail sent by the worker."""

from __future__ import annotations

import hashlib

from celery import shared_task
from django.conf import settings
from django.contrib.auth.views import PasswordResetView
from django.db import DataError
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseRedirect,
    JsonResponse,
)
from django.shortcuts import render
from django.utils import timezone, translation

from tournament.domain.usernames import address_key
from tournament.models import PasswordResetRequest
from tournament.ops.mail import mail_works
from tournament.ops.queue import task_send
from tournament.web.answers import (
    NUMBER_OUT_OF_RANGE,  # the pages say what the API says
)


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
            return None  # the API answers JSON (tournament.web.errors)
        if isinstance(exception, OverflowError | DataError):
            return HttpResponseBadRequest(
                NUMBER_OUT_OF_RANGE, content_type="text/plain"
            )
        return None


# Password resets
# ----------------------------------------------------------------------------------


def password_reset_allowed(*, address: str, client: str | None) -> bool:
    """Whether a reset mail may go to `address` for this client now: at most
    PASSWORD_RESET_PER_ADDRESS mails to one address, and PASSWORD_RESET_PER_CLIENT
    requests from one client, in PASSWORD_RESET_WINDOW. Counted in the database, as
    django-axes counts failed logins, so that every web worker counts the same ones;
    whether the address has an account plays no part (the answer would tell).

    Each request is saved first (committed at once: no transaction is open), then
    counted with those saved before it, so that two at the same moment count each
    other and the limit holds."""
    now = timezone.now()
    since = now - settings.PASSWORD_RESET_WINDOW
    PasswordResetRequest.objects.filter(at__lt=since).delete()  # the past is dropped
    # The address as the account lookup compares it: "ſcorer@…" (a long s) finds
    # scorer@…'s account, so it counts as scorer@… (docs/security.md).
    digest = hashlib.sha256(address_key(address).encode()).hexdigest()
    mine = PasswordResetRequest.objects.create(
        at=now, address_digest=digest, client=client or "", sent=True
    )
    earlier = PasswordResetRequest.objects.filter(at__gte=since, pk__lt=mine.pk)
    allowed = (
        earlier.filter(address_digest=digest, sent=True).count()
        < settings.PASSWORD_RESET_PER_ADDRESS
        and earlier.filter(client=client or "").count()
        < settings.PASSWORD_RESET_PER_CLIENT
    )
    if not allowed:
        PasswordResetRequest.objects.filter(pk=mine.pk).update(sent=False)
    return allowed


class ThrottledPasswordResetView(PasswordResetView):
    """Django's password reset, throttled per address and per client: beyond the
    limit no mail is sent and the page says so (429, with Retry-After). Within it
    the mail is the worker's (`password_reset_mail`): the answer is the same work
    whether or not the address has an account, so its time tells nothing. A site
    with no mail says so, and to ask a site administrator, instead of the form."""

    def dispatch(self, request, *args, **kwargs):
        if not mail_works():
            return render(request, "registration/password_reset_no_mail.html")
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form):
        if password_reset_allowed(
            address=form.cleaned_data["email"], client=client_address(self.request)
        ):
            task_send(
                password_reset_mail,
                form.cleaned_data["email"],
                self.request.get_host(),
                self.request.is_secure(),
                translation.get_language() or settings.LANGUAGE_CODE,
                missed="no password reset mail is sent for this request",
            )
            return HttpResponseRedirect(self.get_success_url())
        seconds = int(settings.PASSWORD_RESET_WINDOW.total_seconds())
        response = render(
            self.request,
            "registration/password_reset_throttled.html",
            {"minutes": seconds // 60},
            status=429,
        )
        response["Retry-After"] = str(seconds)
        return response


@shared_task(name="tournament.password_reset_mail", ignore_result=True)
def password_reset_mail(address: str, domain: str, https: bool, language: str) -> None:
    """The reset mail to each account of `address` (none: nothing), made and sent in
    the worker, each with its one-time link to `domain`, in the visitor's
    `language`: Django's own, as PasswordResetView would send it."""
    form = ThrottledPasswordResetView.form_class({"email": address})
    if not form.is_valid():
        return
    with translation.override(language):
        form.save(domain_override=domain, use_https=https)
