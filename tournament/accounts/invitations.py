"""The one invitation flow, for a role in a tournament and for a standing on the site
alike (docs/people.md): a one-time link is made, mailed, accepted once, withdrawn, or
left to expire. Both kinds are rows of a OneTimeLink model (Invitation and
SiteInvitation, tournament/models/accounts.py); what differs is the caller's
(tournament/accounts/services.py): which role, who may hold it, what accepting gives,
and the words of the one who invited.

A link carries a long random key; only its SHA-256 digest is stored, so the link is
shown to its maker once and a copy of the database accepts nothing. It is accepted
once, before it expires and unless withdrawn; its row is locked while it is accepted,
so two people opening one link at the same moment cannot both get what it gives.

Every write here runs inside its caller's transaction (the services are atomic).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Generic, TypeVar

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from tournament.ops.mail import mail_send_on_commit
from tournament.web.links import key_digest
from tournament.web.zones import mailed, told

from ..domain.errors import ConflictError, RuleError, Words, marked
from ..models import account
from ..models.accounts import OneTimeLink
from .users import new_user_errors, raise_refusals, user_create

INVITATION_DAYS_MAX = 60

Link = TypeVar("Link", bound=OneTimeLink)
Given = TypeVar("Given")


def link_digest(key: str) -> str:
    """What the site keeps of an invitation's key: its digest, as of a table's or a
    team's link (tournament/web/links.py)."""
    return key_digest(key)


@dataclass(frozen=True)
class NewLink(Generic[Link]):
    invitation: Link
    key: str  # the secret of the link: shown once, never stored


def link_create(
    link: Link,
    *,
    user,
    name: str = "",
    email: str = "",
    days: int | None = None,
    errors: list[RuleError],
) -> NewLink[Link]:
    """Save `link` (an unsaved invitation holding what it gives) as a one-time link
    made by `user`, valid for `days` (settings.INVITATION_DAYS unless given). The
    caller's `errors` come first, then the days'."""
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
    raise_refusals(errors)
    key = secrets.token_urlsafe(32)
    now = timezone.now()
    link.name = name.strip()
    link.email = email.strip()
    link.key_digest = link_digest(key)
    link.created_by = account(user)
    link.created_at = now
    link.expires_at = now + timedelta(days=days)
    link.full_clean()
    link.save()
    return NewLink(link, key)


def link_get(links: QuerySet[Link], *, key: str) -> Link | None:
    """The link of `key` among `links`, whatever its state."""
    return links.filter(key_digest=link_digest(key)).first()


def link_state(link: OneTimeLink, now=None) -> str:
    """accepted, withdrawn, expired or waiting (the API's `state`)."""
    if link.accepted_at is not None:
        return "accepted"
    if link.withdrawn_at is not None:
        return "withdrawn"
    if link.expires_at <= (now or timezone.now()):
        return "expired"
    return "waiting"


def link_refusal(
    link: OneTimeLink | None,
    *,
    used: Words,
    withdrawn: Words,
    expired: Words,
    time_zone: str,
) -> RuleError | None:
    """Why a link cannot be accepted now, or None: unknown, used, withdrawn or
    expired, each in the words of the one who invited (`expired` has a hole for the
    moment, told in `time_zone`)."""
    if link is None:
        return RuleError(
            "invitation_unknown",
            marked(
                "This invitation link is not valid: check that it was copied whole."
            ),
        )
    state = link_state(link)
    if state == "accepted":
        return ConflictError("invitation_used", used)
    if state == "withdrawn":
        return ConflictError("invitation_withdrawn", withdrawn)
    if state == "expired":
        return ConflictError(
            "invitation_expired",
            expired,
            expired_on=told(link.expires_at, "j M Y H:i", time_zone),
        )
    return None


def link_accept(
    links: QuerySet[Link],
    *,
    key: str,
    user=None,
    username: str = "",
    password: str = "",
    refusal: Callable[[Link | None], RuleError | None],
    refusals: Callable[[Link, object], list[RuleError]],
    give: Callable[[Link, object], Given],
) -> Given:
    """Accept the link of `key`: as the signed-in `user`, or as a new user made from
    `username` and `password`. `refusal(link)` says why the link cannot be accepted
    now; `refusals(link, holder)` what refuses its role to the signed-in holder (None
    for a new user, who is refused by the username and password rules after these);
    `give(link, user)` gives it and is answered. The link stops."""
    link = (
        # Only the link's row is locked: what it names may be absent (an outer join
        # PostgreSQL cannot lock).
        links.select_for_update(of=("self",))
        .filter(key_digest=link_digest(key))
        .first()
    )
    refused = refusal(link)
    if refused is not None or link is None:
        raise refused or AssertionError
    signed_in = user is not None and user.is_authenticated
    errors = refusals(link, user if signed_in else None)
    if not signed_in:
        errors.extend(new_user_errors(username, password))
    raise_refusals(errors)
    if not signed_in:
        user = user_create(username, password)
    given = give(link, user)
    link.accepted_at = timezone.now()
    link.accepted_by = user
    link.save(update_fields=["accepted_at", "accepted_by"])
    return given


def link_withdraw(link: Link, *, user, used: Words) -> Link:
    """The link stops working; withdrawing twice is the same as once, an accepted
    one is refused in the `used` words."""
    link = type(link).objects.select_for_update().get(pk=link.pk)
    if link.accepted_at is not None:
        raise ConflictError("invitation_used", used)
    if link.withdrawn_at is None:
        link.withdrawn_at = timezone.now()
        link.withdrawn_by = account(user)
        link.save(update_fields=["withdrawn_at", "withdrawn_by"])
    return link


def link_mail(
    link: OneTimeLink, *, url: str, where: str, what: str, time_zone: str
) -> None:
    """Have the worker send the link's `url` to the address its maker gave, once the
    link is saved (tournament/ops/mail.py: none on a site with no mail). In English,
    as a mail has no page's language: invited to `where` as `what`, before it
    expires, told in `time_zone` and named."""
    if not link.email:
        return
    body = (
        f"You are invited to {where} as {what}.\n\n"
        f"Open this link to accept, before "
        f"{mailed(link.expires_at, time_zone)}:\n{url}\n\n"
        "It works once. If you did not expect it, ignore this message."
    )
    mail_send_on_commit(
        subject=f"Invitation: {where}",
        body=body,
        to=[link.email],
        missed="the invitation's mail is not sent; its maker was shown its link",
    )
