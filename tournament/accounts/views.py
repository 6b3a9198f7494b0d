"""Pages of people's roles (docs/people.md): a tournament's People page (its roles and
invitations, for its organizers), the Site administration page (creators,
administrators and the site's invitations, for the site's administrators), and the
pages where an invitation link of either kind is accepted.

Interfaces only: each POST names an action, a form checks its shape, one service does
the work. Making and withdrawing an invitation, and accepting one, are written once
here for both kinds (the flow itself is tournament/accounts/invitations.py's).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from tournament.ops.mail import invitation_sent_words
from tournament.web.pages import form_errors, page_action, visible_tournament
from tournament.web.zones import tournament_zone_activate

from ..domain.errors import RuleError
from ..domain.types import Role
from ..models import SiteRole, Team
from ..words import refusal as said_refusal
from . import services
from .forms import AcceptForm, InvitationForm, RoleForm, RowForm, SiteInvitationForm
from .invitations import NewLink
from .selectors import (
    invitation_get,
    invitation_list,
    is_site_administrator,
    membership_list,
    site_invitation_get,
    site_invitation_list,
    site_people_list,
    site_person_get,
)

# The session keys of a new link, shown once
LINK_SHOWN = "invitation_link"
SITE_LINK_SHOWN = "site_invitation_link"

# Making and withdrawing an invitation, either kind
# ----------------------------------------------------------------------------------


def _invite(
    request: HttpRequest,
    form,
    *,
    create: Callable[[dict], NewLink],
    mail: Callable[..., None],
    url_name: str,
    shown: str,
) -> str | None:
    """An invitation made from `form` (`create(cleaned_data)`): its link mailed
    when an address is given, and kept in the session under `shown` for the next
    page to show once. The message said; None when the form shows its errors."""
    if not form.is_valid():
        return None
    try:
        made = create(form.cleaned_data)
    except RuleError as error:
        form_errors(form, error)
        return None
    link = request.build_absolute_uri(reverse(url_name, args=[made.key]))
    mail(invitation=made.invitation, link=link)
    request.session[shown] = link
    said = gettext("The invitation is made: copy its link below now, it is shown once.")
    if made.invitation.email:
        said += " " + invitation_sent_words(made.invitation.email)
    return said


def _row(request: HttpRequest) -> int:
    """The row of the list a button names."""
    row = RowForm(request.POST)
    if not row.is_valid():
        raise RuleError("invalid", gettext("Choose a row of the list."))
    return row.cleaned_data["row"]


def _withdraw(
    request: HttpRequest, invitations: QuerySet, row: int, withdraw: Callable
) -> str:
    withdraw(invitation=get_object_or_404(invitations, pk=row), user=request.user)
    return gettext("The invitation is withdrawn: its link no longer works.")


def _unknown_action() -> RuleError:
    return RuleError("invalid", gettext("Choose what to change from the page."))


# A tournament's People page
# ----------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def people_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Who has which role, the invitations out, and the forms to invite someone or
    give a role to someone who has an account."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament, roles = visible_tournament(request, slug)
    if Role.ORGANIZER not in roles:
        raise PermissionDenied(
            gettext("Only the tournament's organizers manage its people.")
        )
    teams = Team.objects.filter(tournament=tournament)
    action = request.POST.get("action") if request.method == "POST" else None
    invite = InvitationForm(
        request.POST if action == "invite" else None, teams=teams, prefix="invite"
    )
    role = RoleForm(
        request.POST if action == "role" else None, teams=teams, prefix="role"
    )
    if action is not None:
        answer = page_action(
            request,
            lambda: _act(request, tournament, action, teams, invite, role),
            reverse("tournament:people", args=[slug]),
        )
        if answer is not None:
            return answer
    return render(
        request,
        "tournament/people.html",
        {
            "tournament": tournament,
            "roles": roles,
            "members": membership_list(tournament=tournament).order_by(
                "role", "user__username"
            ),
            "invitations": list(invitation_list(tournament=tournament)[:50]),
            "now": timezone.now(),
            "new_link": request.session.pop(LINK_SHOWN, None),
            "invite_form": invite,
            "role_form": role,
        },
        status=400 if action is not None else 200,
    )


def _team(teams: QuerySet[Team], pk: int | None) -> Team | None:
    """The team a form names (404 when it is not the tournament's), or None."""
    return get_object_or_404(teams, pk=pk) if pk else None


def _act(request, tournament, action, teams, invite, role) -> str | None:
    """The message of a done action; None when a form shows its errors."""
    if action == "invite":
        return _invite(
            request,
            invite,
            create=lambda data: services.invitation_create(
                tournament=tournament,
                user=request.user,
                role=data["role"],
                team=_team(teams, data["team"]),
                name=data["name"],
                email=data["email"],
                days=data["days"],
            ),
            mail=services.invitation_mail,
            url_name="tournament:invitation",
            shown=LINK_SHOWN,
        )
    if action == "role":
        if not role.is_valid():
            return None
        data = role.cleaned_data
        team = _team(teams, data["team"])
        try:
            membership = services.membership_create(
                tournament=tournament,
                username=data["username"],
                role=data["role"],
                team=team,
            )
        except RuleError as error:
            form_errors(role, error)
            return None
        # The role by its label, as the People tab lists it ("Organizer").
        return gettext("%(user)s has the role %(role)s now.") % {
            "user": membership.user.username,
            "role": membership.get_role_display(),
        }
    row = _row(request)
    if action == "remove":
        membership = get_object_or_404(membership_list(tournament=tournament), pk=row)
        services.membership_delete(membership=membership)
        return gettext("%(user)s no longer has the role %(role)s.") % {
            "user": membership.user.username,
            "role": membership.get_role_display(),
        }
    if action == "withdraw":
        return _withdraw(
            request,
            invitation_list(tournament=tournament),
            row,
            services.invitation_withdraw,
        )
    raise _unknown_action()


# The Site administration page
# ----------------------------------------------------------------------------------


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
            lambda: _site_act(request, action, invite),
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
            "new_link": request.session.pop(SITE_LINK_SHOWN, None),
            "invite_form": invite,
        },
        status=400 if action is not None else 200,
    )


def _site_act(request, action, invite) -> str | None:
    """The message of a done action; None when a form shows its errors."""
    if action == "invite":
        return _invite(
            request,
            invite,
            create=lambda data: services.site_invitation_create(
                user=request.user, **data
            ),
            mail=services.site_invitation_mail,
            url_name="tournament:site-invitation",
            shown=SITE_LINK_SHOWN,
        )
    row = _row(request)
    if action == "withdraw":
        return _withdraw(
            request, site_invitation_list(), row, services.site_invitation_withdraw
        )
    if action == "remove":
        person = site_person_get(pk=row)
        if person is None:
            raise Http404
        services.site_role_withdraw(user=person.user)
        return gettext(
            "%(user)s no longer creates tournaments nor administers the site."
        ) % {"user": person.username}
    raise _unknown_action()


# Accepting an invitation
# ----------------------------------------------------------------------------------


def welcome(membership) -> str:
    """The greeting of an accepted invitation, a sentence for each role ("you are an
    organizer of Spring Open now"), not the role's label put in one."""
    tournament = membership.tournament.name
    if membership.role == Role.ORGANIZER:
        return gettext("Welcome: you are an organizer of %(tournament)s now.") % {
            "tournament": tournament
        }
    if membership.role == Role.CAPTAIN and membership.team is not None:
        return gettext(
            "Welcome: you are the captain of %(team)s in %(tournament)s now."
        ) % {"team": membership.team.name, "tournament": tournament}
    return gettext("Welcome: you are a scorer of %(tournament)s now.") % {
        "tournament": tournament
    }


def invitation_answer(
    request: HttpRequest,
    *,
    key: str,
    invitation,
    refusal: RuleError | None,
    template: str,
    accept: Callable[..., object],
    accepted: Callable[[object], tuple[object, str, str]],
) -> HttpResponse:
    """The page of an invitation link, a tournament's or the site's: whoever holds it
    sees what it offers and accepts it as the signed-in user, or by choosing a
    username and password. A used, withdrawn or expired link says so (410); an
    unknown one is 404. `accept(user=, username=, password=)` writes;
    `accepted(result)` names the account, the welcome and where to go next."""
    if refusal is not None:
        return render(
            request,
            template,
            {"invitation": None, "refusal": said_refusal(refusal)},
            status=404 if invitation is None else 410,
        )
    signed_in = request.user.is_authenticated
    form = AcceptForm(
        request.POST if request.method == "POST" and not signed_in else None
    )
    if request.method == "POST" and (signed_in or form.is_valid()):
        try:
            result = accept(
                user=request.user if signed_in else None,
                username=form.cleaned_data["username"] if not signed_in else "",
                password=form.cleaned_data["password"] if not signed_in else "",
            )
        except RuleError as error:
            if signed_in:
                messages.error(request, said_refusal(error))
                return redirect(request.path)
            form_errors(form, error)
        else:
            user, greeting, to = accepted(result)
            if not signed_in:
                login(
                    request, user, backend="django.contrib.auth.backends.ModelBackend"
                )
            messages.success(request, greeting)
            return redirect(to)
    return render(
        request,
        template,
        {"invitation": invitation, "form": form, "key": key},
        status=400 if form.is_bound else 200,
    )


@require_http_methods(["GET", "POST"])
def invitation_page(request: HttpRequest, key: str) -> HttpResponse:
    """A tournament's invitation link (invitation_answer)."""
    invitation = invitation_get(key=key)
    if invitation is not None:
        tournament_zone_activate(invitation.tournament)
    return invitation_answer(
        request,
        key=key,
        invitation=invitation,
        refusal=services.invitation_refusal(invitation),
        template="tournament/invitation.html",
        accept=partial(services.invitation_accept, key=key),
        accepted=lambda membership: (
            membership.user,
            welcome(membership),
            reverse("tournament:detail", args=[membership.tournament.slug]),
        ),
    )


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
    """A site invitation's link (invitation_answer)."""
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
