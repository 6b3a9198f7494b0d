"""Every write to the site's standing of people: creators and administrators, given by
a one-time link and withdrawn by an administrator (docs/people.md). One transaction
each.

A standing is kept as Django permissions: a creator holds `tournament.add_tournament`,
an administrator `tournament.administer_site` as well; a superuser is an administrator.
So a grant made in the Django admin counts as one made here, and a whole-site backup
carries them with the users. An invitation keeps only the SHA-256 digest of its key,
works once, and is locked while it is accepted, as a tournament's invitations are
(tournament/people/services.py).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import Permission
from django.db import transaction
from django.utils import timezone

from tournament.ops.mail import mail_send_on_commit
from tournament.web.zones import mailed

from ..domain.errors import ConflictError, RuleError, marked
from ..models import SiteInvitation, SiteRole, account
from .selectors import site_administrators, site_role_of
from .services import (
    INVITATION_DAYS_MAX,
    _new_user_errors,
    _raise,
    _user_create,
    invitation_digest,
    invitation_state_refusal,
    link_withdraw,
)

CREATE, ADMINISTER = "add_tournament", "administer_site"
CODENAMES = {
    SiteRole.CREATOR: (CREATE,),
    SiteRole.ADMINISTRATOR: (CREATE, ADMINISTER),
}


def _permissions(role: SiteRole) -> list[Permission]:
    return list(
        Permission.objects.filter(
            content_type__app_label="tournament", codename__in=CODENAMES[role]
        )
    )


def _forget_permissions(user) -> None:
    """Django caches a user's permissions on the object: read them again."""
    for cached in ("_perm_cache", "_user_perm_cache", "_group_perm_cache"):
        user.__dict__.pop(cached, None)


def _role_taken(user, role: SiteRole) -> RuleError | None:
    held = site_role_of(user)
    if held == SiteRole.ADMINISTRATOR:
        return ConflictError(
            "role_taken",
            marked("%(username)s is a site administrator already"),
            field="role",
            username=user.username,
        )
    if held == role:
        return ConflictError(
            "role_taken",
            marked("%(username)s may create tournaments already"),
            field="role",
            username=user.username,
        )
    return None


@transaction.atomic
def site_role_grant(*, user, role: str) -> None:
    """Make `user` a creator or an administrator (the demo's organizer, an accepted
    invitation). An administrator's standing includes a creator's; an administrator
    is staff too, which lets every page's header know it without a query."""
    user.user_permissions.add(*_permissions(SiteRole(role)))
    _forget_permissions(user)
    if role == SiteRole.ADMINISTRATOR and not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])


@transaction.atomic
def site_role_withdraw(*, user) -> None:
    """`user` is no longer a creator nor an administrator. A superuser stays one (the
    Django admin's users page changes that), and the site keeps an administrator."""
    administrators = list(
        site_administrators().select_for_update().values_list("pk", flat=True)
    )
    held = site_role_of(user)
    if held is None:
        raise ConflictError(
            "no_site_role",
            marked("%(username)s is neither a creator nor an administrator"),
            username=user.username,
        )
    if user.is_superuser:
        raise ConflictError(
            "superuser",
            marked(
                "%(username)s is a superuser, an administrator by that; only the "
                "Django admin's users page changes it"
            ),
            username=user.username,
        )
    if held == SiteRole.ADMINISTRATOR and set(administrators) <= {user.pk}:
        raise ConflictError(
            "last_administrator",
            marked("the site keeps at least one administrator"),
        )
    user.user_permissions.remove(*_permissions(SiteRole.ADMINISTRATOR))
    _forget_permissions(user)
    if user.is_staff:
        user.is_staff = False  # staff opens nothing but an administrator's header
        user.save(update_fields=["is_staff"])
    if site_role_of(user) is not None:
        raise ConflictError(
            "role_from_group",
            marked(
                "%(username)s holds it through a group; the Django admin's groups "
                "change that"
            ),
            username=user.username,
        )


# Invitations
# ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class NewSiteInvitation:
    invitation: SiteInvitation
    key: str  # the secret of the link: shown once, never stored


@transaction.atomic
def site_invitation_create(
    *, user, role: str, name: str = "", email: str = "", days: int | None = None
) -> NewSiteInvitation:
    """A one-time link that makes its holder a creator or an administrator, valid
    for `days` (settings.INVITATION_DAYS unless given)."""
    errors: list[RuleError] = []
    if role not in SiteRole.values:
        errors.append(
            RuleError(
                "invalid_choice",
                marked("a site role is creator or administrator"),
                field="role",
            )
        )
    days = settings.INVITATION_DAYS if days is None else days
    if not 1 <= days <= INVITATION_DAYS_MAX:
        errors.append(
            RuleError(
                "out_of_range",
                marked("an invitation is valid for 1 to %(INVITATION_DAYS_MAX)s days"),
                field="days",
                INVITATION_DAYS_MAX=INVITATION_DAYS_MAX,
            )
        )
    _raise(errors)
    key = secrets.token_urlsafe(32)
    invitation = SiteInvitation(
        role=role,
        name=name.strip(),
        email=email.strip(),
        key_digest=invitation_digest(key),
        created_by=account(user),
        created_at=timezone.now(),
        expires_at=timezone.now() + timedelta(days=days),
    )
    invitation.full_clean()
    invitation.save()
    return NewSiteInvitation(invitation, key)


def site_invitation_mail(*, invitation: SiteInvitation, link: str) -> None:
    """Have the worker send the link to the address given, once the invitation is
    saved (tournament/ops/mail.py: none on a site with no mail)."""
    if not invitation.email:
        return
    what = {
        SiteRole.CREATOR: "a tournament creator: you may create tournaments",
        SiteRole.ADMINISTRATOR: (
            "an administrator of the site: you may create tournaments and invite "
            "creators and administrators"
        ),
    }[SiteRole(invitation.role)]
    body = (
        f"You are invited to the tournament site as {what}.\n\n"
        f"Open this link to accept, before "
        f"{mailed(invitation.expires_at, settings.TIME_ZONE)}:\n{link}\n\n"
        "It works once. If you did not expect it, ignore this message."
    )
    mail_send_on_commit(
        subject="Invitation: the tournament site",
        body=body,
        to=[invitation.email],
        missed="the invitation's mail is not sent; its maker was shown its link",
    )


def site_invitation_refusal(invitation: SiteInvitation | None) -> RuleError | None:
    """Why this invitation cannot be accepted now, or None."""
    return invitation_state_refusal(
        invitation,
        used=marked(
            "This invitation was accepted already; an invitation works once. Ask "
            "a site administrator for a new one if you need it."
        ),
        withdrawn=marked("A site administrator withdrew this invitation."),
        expired=marked(
            "This invitation expired on %(expired_on)s; ask a site administrator "
            "for a new one."
        ),
        time_zone=settings.TIME_ZONE,
    )


@transaction.atomic
def site_invitation_accept(
    *, key: str, user=None, username: str = "", password: str = ""
):
    """Accept an invitation as the signed-in `user`, or as a new user made from
    `username` and `password`: that user gets the standing; the link stops. Answers
    the user."""
    invitation = (
        SiteInvitation.objects.select_for_update()
        .filter(key_digest=invitation_digest(key))
        .first()
    )
    refusal = site_invitation_refusal(invitation)
    if refusal is not None or invitation is None:
        raise refusal or AssertionError
    role = SiteRole(invitation.role)
    signed_in = user is not None and user.is_authenticated
    if signed_in:
        if taken := _role_taken(user, role):
            raise taken
    else:
        _raise(_new_user_errors(username, password))
        user = _user_create(username, password)
    site_role_grant(user=user, role=role)
    invitation.accepted_at = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    return user


@transaction.atomic
def site_invitation_withdraw(*, invitation: SiteInvitation, user) -> SiteInvitation:
    """The link stops working; withdrawing twice is the same as once."""
    return link_withdraw(
        invitation,
        user=user,
        used=marked(
            "This invitation was accepted already; withdraw the person's "
            "standing instead."
        ),
    )
