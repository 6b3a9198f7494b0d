"""Pages of the site's people: the administrators' page (creators, administrators,
invitations) and the page where a site invitation is accepted (docs/people.md).

Interfaces only: each POST names an action, a form checks its shape, one service does
the work.
"""

from __future__ import annotations

from functools import partial

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from tournament.ops.mail import invitation_sent_words

from ..domain.errors import RuleError
from ..models import SiteRole
from ..views import form_errors, page_action
from . import site_services as services
from .forms import RowForm
from .selectors import (
    is_site_administrator,
    site_invitation_get,
    site_invitation_list,
    site_people_list,
    site_person_get,
)
from .site_forms import SiteInvitationForm
from .views import invitation_answer

LINK_SHOWN = "site_invitation_link"  # the session key of a new link, shown once


def _link(request: HttpRequest, key: str) -> str:
    return request.build_absolute_uri(reverse("tournament:site-invitation", args=[key]))


@require_http_methods(["GET", "POST"])
def site_page(request: HttpRequest) -> HttpResponse:
    """The site's creators and administrators, its invitations, and the form to
    invite someone; for the site's administrators."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not is_site_administrator(request.user):
        raise PermissionDenied(
            gettext("Only the site's administrators manage who may create tournaments.")
        )
    action = request.POST.get("action") if request.method == "POST" else None
    invite = SiteInvitationForm(
        request.POST if action == "invite" else None, prefix="invite"
    )
    if action is not None:
        answer = page_action(
            request,
            lambda: _act(request, action, invite),
            reverse("tournament:site"),
        )
        if answer is not None:
            return answer
    return render(
        request,
        "tournament/site.html",
        {
            "people": site_people_list(),
            "invitations": list(site_invitation_list()[:100]),
            "now": timezone.now(),
            "new_link": request.session.pop(LINK_SHOWN, None),
            "invite_form": invite,
        },
        status=400 if action is not None else 200,
    )


def _act(request, action, invite) -> str | None:
    """The message of a done action; None when a form shows its errors."""
    if action == "invite":
        if not invite.is_valid():
            return None
        data = invite.cleaned_data
        try:
            made = services.site_invitation_create(user=request.user, **data)
        except RuleError as error:
            form_errors(invite, error)
            return None
        link = _link(request, made.key)
        services.site_invitation_mail(invitation=made.invitation, link=link)
        request.session[LINK_SHOWN] = link
        said = gettext(
            "The invitation is made: copy its link below now, it is shown once."
        )
        if made.invitation.email:
            said += " " + invitation_sent_words(made.invitation.email)
        return said
    row = RowForm(request.POST)
    if not row.is_valid():
        raise RuleError("invalid", gettext("Choose a row of the list."))
    if action == "withdraw":
        invitation = get_object_or_404(
            site_invitation_list(), pk=row.cleaned_data["row"]
        )
        services.site_invitation_withdraw(invitation=invitation, user=request.user)
        return gettext("The invitation is withdrawn: its link no longer works.")
    if action == "remove":
        person = site_person_get(pk=row.cleaned_data["row"])
        if person is None:
            raise Http404
        services.site_role_withdraw(user=person.user)
        return gettext(
            "%(user)s no longer creates tournaments nor administers the site."
        ) % {"user": person.username}
    raise RuleError("invalid", gettext("Choose what to change from the page."))


def _site_welcome(user, role: str) -> tuple[object, str, str]:
    """An accepted site invitation: an administrator goes to the site's page, a
    creator home, each told what the standing allows."""
    if role == SiteRole.ADMINISTRATOR:
        return (
            user,
            gettext(
                "Welcome: you administer the site now. You may create "
                "tournaments and invite creators and administrators."
            ),
            reverse("tournament:site"),
        )
    return (
        user,
        gettext("Welcome: you may create tournaments now."),
        reverse("tournament:home"),
    )


@require_http_methods(["GET", "POST"])
def site_invitation_page(request: HttpRequest, key: str) -> HttpResponse:
    """A site invitation's link (people.views.invitation_answer)."""
    invitation = site_invitation_get(key=key)
    return invitation_answer(
        request,
        key=key,
        invitation=invitation,
        refusal=services.site_invitation_refusal(invitation),
        template="tournament/site_invitation.html",
        accept=partial(services.site_invitation_accept, key=key),
        accepted=lambda user: _site_welcome(user, invitation.role),
    )
