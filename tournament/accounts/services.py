"""Every write to a tournament's people: roles given directly, and invitations by link
(docs/people.md). One transaction each.

An invitation carries a long random key; only its SHA-256 digest is stored, so the
link is shown to the organizer once and a copy of the database accepts nothing. It
is accepted once, before it expires and unless withdrawn; the row is locked while it
is accepted, so two people opening one link at the same moment cannot both get the
role.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from tournament.ops.mail import mail_send_on_commit
from tournament.web.zones import mailed, told

from ..domain.errors import ConflictError, RuleError, RuleErrors, Words, marked
from ..domain.types import Role
from ..domain.usernames import (
    username_form,
    username_key,
    username_refusal,
    username_skeleton,
)
from ..models import Invitation, Membership, Team, Tournament, account

INVITATION_DAYS_MAX = 60


def _raise(errors: list[RuleError]) -> None:
    if errors:
        raise errors[0] if len(errors) == 1 else RuleErrors(errors)


def _role_errors(
    *, tournament: Tournament, role: Role, team: Team | None
) -> list[RuleError]:
    """What is wrong with giving `role` (for `team`) in this tournament, whoever
    gets it."""
    errors: list[RuleError] = []
    if role == Role.CAPTAIN and team is None:
        errors.append(
            RuleError(
                "required",
                marked("a captain's role names the team"),
                field="team",
            )
        )
    if role != Role.CAPTAIN and team is not None:
        errors.append(
            RuleError(
                "not_captain",
                marked("only a captain's role names a team"),
                field="team",
            )
        )
    if team is not None and team.tournament_id != tournament.pk:
        errors.append(
            RuleError(
                "unknown_team",
                marked("no such team in this tournament"),
                field="team",
            )
        )
    if (
        team is not None
        and Membership.objects.filter(team=team, role=Role.CAPTAIN).exists()
    ):
        errors.append(
            RuleError(
                "captain_taken",
                marked("%(team)s has a captain already"),
                field="team",
                team=team.name,
            )
        )
    return errors


def _role_taken(tournament: Tournament, user, role: Role) -> RuleError | None:
    if Membership.objects.filter(tournament=tournament, user=user, role=role).exists():
        return RuleError(
            "role_taken",
            marked("%(username)s is %(role)s here already"),
            field="role",
            username=user.username,
            role=role.value,
        )
    return None


def _username_errors(username: str) -> list[RuleError]:
    """The site's rules for usernames (tournament/domain/usernames.py: letters of
    one alphabet, digits 0 to 9, . _ - @ +), then the user model's own, for the API
    and the pages alike."""
    if refusal := username_refusal(username):
        return [refusal]
    user_model = get_user_model()
    try:
        user_model._meta.get_field(user_model.USERNAME_FIELD).run_validators(
            username_form(username)
        )
    except ValidationError as error:
        return [
            RuleError("invalid_username", m, field="username") for m in error.messages
        ]
    return []


class SiteUsernames:
    """The site's usernames by key and by skeleton (tournament/domain/usernames.py),
    read once to judge many names (a tournament's file names its people). Every
    username is read: the keys are Unicode's case folding and TR39's skeleton, which
    no database index holds, and a site has thousands of users, not millions
    (docs/people.md, "Usernames": 20,000 read in about 65 ms)."""

    def __init__(self, *, exclude_pk: int | None = None) -> None:
        self.keys: dict[str, str] = {}
        self.skeletons: dict[str, str] = {}
        others = get_user_model()._base_manager.exclude(pk=exclude_pk)
        for existing in others.values_list("username", flat=True).iterator(2000):
            self.add(existing)

    def add(self, username: str) -> None:
        self.keys.setdefault(username_key(username), username)
        self.skeletons.setdefault(username_skeleton(username), username)

    def clashes(self, username: str) -> list[RuleError]:
        """A username that one of the site's is, letter case and width aside
        ("ＲＯＯＴ", "ROOT" beside "root"), or looks like (Cyrillic "рор" beside
        "pop")."""
        if username_key(username) in self.keys:
            return [
                RuleError(
                    "username_taken",
                    marked(
                        "the username %(username)s is taken (usernames that differ "
                        "only in letter case or width are one); choose another, or "
                        "log in if it is yours"
                    ),
                    field="username",
                    username=username_form(username),
                )
            ]
        if username_skeleton(username) in self.skeletons:
            return [
                RuleError(
                    "username_confusable",
                    marked(
                        "the username %(username)s looks like an existing one "
                        "(letters of another alphabet that look the same); choose "
                        "another"
                    ),
                    field="username",
                    username=username_form(username),
                )
            ]
        return []


def username_clashes(
    username: str, *, exclude_pk: int | None = None
) -> list[RuleError]:
    """The refusals of a username that a user's is or looks like (SiteUsernames)."""
    return SiteUsernames(exclude_pk=exclude_pk).clashes(username)


def username_refusals_of(username: str, site: SiteUsernames) -> list[RuleError]:
    """username_refusals against usernames read once (SiteUsernames)."""
    return _username_errors(username) or site.clashes(username)


def username_refusals(
    username: str, *, exclude_pk: int | None = None
) -> list[RuleError]:
    """Everything that refuses `username` for a new or renamed user (`exclude_pk`):
    the rules of its characters, then the names it is or looks like."""
    return username_refusals_of(username, SiteUsernames(exclude_pk=exclude_pk))


def _new_user_errors(username: str, password: str | None) -> list[RuleError]:
    """What is wrong with making a user of this name and password: the username's
    rules, a name taken or looked like, and the site's password validators."""
    user_model = get_user_model()
    errors = _username_errors(username)
    if errors:
        return errors
    errors.extend(username_clashes(username))
    if not password:
        errors.append(
            RuleError("required", marked("choose a password"), field="password")
        )
    else:
        try:
            validate_password(password, user_model(username=username_form(username)))
        except ValidationError as error:
            errors.extend(
                RuleError("weak_password", m, field="password") for m in error.messages
            )
    return errors


def _user_create(username: str, password: str):
    """The user, its name in the form Django stores (its checks made before). A
    name another request took since is refused as the checks refuse it."""
    user = get_user_model()(username=username_form(username))
    user.set_password(password)
    try:
        user.full_clean()
    except ValidationError as error:
        _raise(
            [
                RuleError("invalid_username", m, field="username")
                for m in error.message_dict.get("username", error.messages)
            ]
        )
    user.save()
    return user


def _membership_save(tournament: Tournament, user, role: Role, team: Team | None):
    membership = Membership(tournament=tournament, user=user, role=role, team=team)
    membership.full_clean()
    membership.save()
    return membership


# Roles given directly
# ----------------------------------------------------------------------------------


@transaction.atomic
def membership_create(
    *,
    tournament: Tournament,
    username: str,
    role: str,
    password: str | None = None,
    team: Team | None = None,
) -> Membership:
    """Give a person a role in the tournament; a new username creates the user (the
    API's way; the pages invite by link instead)."""
    user_model = get_user_model()
    role = Role(role)
    username = username_form(username)  # as Django stores it, and as login reads it
    errors = _role_errors(tournament=tournament, role=role, team=team)
    user = user_model.objects.filter(username=username).first()
    if user is None:
        if not password:
            if bad := _username_errors(username):  # said rather than "no user"
                _raise(errors + bad)
            errors.append(
                RuleError(
                    "required",
                    marked(
                        "there is no user %(username)s; give a password to create one"
                    ),
                    field="password",
                    username=username,
                )
            )
        else:
            errors.extend(_new_user_errors(username, password))
    elif password:
        errors.append(
            RuleError(
                "user_exists",
                marked(
                    "%(username)s exists already; a role for an existing user takes "
                    "no password"
                ),
                field="password",
                username=username,
            )
        )
    elif taken := _role_taken(tournament, user, role):
        errors.append(taken)
    _raise(errors)
    if user is None:
        user = _user_create(username, password or "")
    return _membership_save(tournament, user, role, team)


@transaction.atomic
def membership_delete(*, membership: Membership) -> None:
    tournament = membership.tournament
    if (
        membership.role == Role.ORGANIZER
        and not Membership.objects.filter(tournament=tournament, role=Role.ORGANIZER)
        .exclude(pk=membership.pk)
        .exists()
    ):
        raise ConflictError(
            "last_organizer", marked("a tournament keeps at least one organizer")
        )
    membership.delete()


@transaction.atomic
def user_delete(*, user) -> None:
    """Delete an account (the Django admin's users page), unless it is the last
    organizer of a tournament: its roles would go with it."""
    for membership in Membership.objects.select_related("tournament").filter(
        user=user, role=Role.ORGANIZER
    ):
        if (
            not Membership.objects.filter(
                tournament=membership.tournament_id, role=Role.ORGANIZER
            )
            .exclude(user=user)
            .exists()
        ):
            raise ConflictError(
                "last_organizer",
                marked(
                    "%(username)s is the last organizer of %(tournament)s: give the "
                    "role to someone else first"
                ),
                username=user.username,
                tournament=membership.tournament.name,
            )
    user.delete()


# Invitations
# ----------------------------------------------------------------------------------


def invitation_digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


@dataclass(frozen=True)
class NewInvitation:
    invitation: Invitation
    key: str  # the secret of the link: shown once, never stored


@transaction.atomic
def invitation_create(
    *,
    tournament: Tournament,
    user,
    role: str,
    team: Team | None = None,
    name: str = "",
    email: str = "",
    days: int | None = None,
) -> NewInvitation:
    """A one-time link for `role`, valid for `days` (settings.INVITATION_DAYS
    unless given)."""
    role = Role(role)
    days = settings.INVITATION_DAYS if days is None else days
    errors = _role_errors(tournament=tournament, role=role, team=team)
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
    invitation = Invitation(
        tournament=tournament,
        role=role,
        team=team,
        name=name.strip(),
        email=email.strip(),
        key_digest=invitation_digest(key),
        created_by=account(user),
        expires_at=timezone.now() + timedelta(days=days),
    )
    invitation.full_clean()
    invitation.save()
    return NewInvitation(invitation, key)


def _mailed(invitation: Invitation) -> str:
    """When an invitation expires, in English (a mail has no page's language) and
    in its tournament's zone, named."""
    return mailed(invitation.expires_at, invitation.tournament.time_zone)


def invitation_mail(*, invitation: Invitation, link: str) -> None:
    """Have the worker send the link to the address the organizer gave, once the
    invitation is saved (tournament/ops/mail.py: none on a site with no mail)."""
    if not invitation.email:
        return
    what = invitation.get_role_display().lower()
    if invitation.team is not None:
        what += f" of {invitation.team.name}"
    body = (
        f"You are invited to {invitation.tournament.name} as {what}.\n\n"
        f"Open this link to accept, before "
        f"{_mailed(invitation)}:\n{link}\n\n"
        "It works once. If you did not expect it, ignore this message."
    )
    mail_send_on_commit(
        subject=f"Invitation: {invitation.tournament.name}",
        body=body,
        to=[invitation.email],
        missed="the invitation's mail is not sent; its maker was shown its link",
    )


def invitation_state_refusal(
    invitation, *, used: Words, withdrawn: Words, expired: Words, time_zone: str
) -> RuleError | None:
    """Why an invitation link, a tournament's or the site's, cannot be accepted now,
    or None: unknown, used, withdrawn or expired, each in the words of the one who
    invited (`expired` has a hole for the moment, told in `time_zone`)."""
    if invitation is None:
        return RuleError(
            "invitation_unknown",
            marked(
                "This invitation link is not valid: check that it was copied whole."
            ),
        )
    if invitation.accepted_at is not None:
        return ConflictError("invitation_used", used)
    if invitation.withdrawn_at is not None:
        return ConflictError("invitation_withdrawn", withdrawn)
    if invitation.expires_at <= timezone.now():
        return ConflictError(
            "invitation_expired",
            expired,
            expired_on=told(invitation.expires_at, "j M Y H:i", time_zone),
        )
    return None


def invitation_refusal(invitation: Invitation | None) -> RuleError | None:
    """Why this invitation cannot be accepted now, or None."""
    return invitation_state_refusal(
        invitation,
        used=marked(
            "This invitation was accepted already; an invitation works once. Ask "
            "the organizer for a new one if you need it."
        ),
        withdrawn=marked("The organizer withdrew this invitation."),
        expired=marked(
            "This invitation expired on %(expired_on)s; ask the organizer for a "
            "new one."
        ),
        time_zone=invitation.tournament.time_zone if invitation else "UTC",
    )


@transaction.atomic
def invitation_accept(
    *,
    key: str,
    user=None,
    username: str = "",
    password: str = "",
) -> Membership:
    """Accept an invitation: as the signed-in `user`, or as a new user made from
    `username` and `password`. The role goes to that user; the link stops."""
    invitation = (
        # Only the invitation's row is locked: its team may be absent (an outer
        # join PostgreSQL cannot lock).
        Invitation.objects.select_for_update(of=("self",))
        .select_related("tournament", "team")
        .filter(key_digest=invitation_digest(key))
        .first()
    )
    refusal = invitation_refusal(invitation)
    if refusal is not None or invitation is None:
        raise refusal or AssertionError
    role = Role(invitation.role)
    errors = _role_errors(
        tournament=invitation.tournament, role=role, team=invitation.team
    )
    if user is not None and user.is_authenticated:
        if taken := _role_taken(invitation.tournament, user, role):
            errors.append(taken)
    else:
        errors.extend(_new_user_errors(username, password))
    _raise(errors)
    if user is None or not user.is_authenticated:
        user = _user_create(username, password)
    membership = _membership_save(invitation.tournament, user, role, invitation.team)
    invitation.accepted_at = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    return membership


def link_withdraw(invitation, *, user, used: Words):
    """An invitation link, a tournament's or the site's, stops working; withdrawing
    twice is the same as once, an accepted one is refused in the `used` words. Inside
    its caller's transaction."""
    invitation = type(invitation).objects.select_for_update().get(pk=invitation.pk)
    if invitation.accepted_at is not None:
        raise ConflictError("invitation_used", used)
    if invitation.withdrawn_at is None:
        invitation.withdrawn_at = timezone.now()
        invitation.withdrawn_by = account(user)
        invitation.save(update_fields=["withdrawn_at", "withdrawn_by"])
    return invitation


@transaction.atomic
def invitation_withdraw(*, invitation: Invitation, user) -> Invitation:
    return link_withdraw(
        invitation,
        user=user,
        used=marked("This invitation was accepted already; remove the role instead."),
    )
