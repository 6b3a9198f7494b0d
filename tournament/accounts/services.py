"""Every write to people's roles (docs/people.md), one transaction each: the roles
in a tournament (organizer, scorer, captain), given directly or by an invitation
link, and the standing on the site (tournament creator, site administrator), given
by an invitation link and withdrawn by an administrator. Both kinds of invitation go
through the one flow of tournament/accounts/invitations.py (a one-time link: made,
mailed, accepted once, withdrawn, expired); what is here is what each gives, who may
hold it, and the words of the one who invited. New accounts and usernames are
tournament/accounts/users.py's.

A site standing is kept as Django permissions: a creator holds
`tournament.add_tournament`, an administrator `tournament.administer_site` as well; a
superuser is an administrator. So a grant made in the Django admin counts as one made
here, and a whole-site backup carries them with the users.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction

from tournament.db.raw import permissions_forget

from ..domain.errors import ConflictError, RuleError, marked
from ..domain.types import Role
from ..domain.usernames import username_form
from ..models import Invitation, Membership, SiteInvitation, SiteRole, Team, Tournament
from .invitations import (
    NewLink,
    link_accept,
    link_create,
    link_mail,
    link_refusal,
    link_withdraw,
)
from .selectors import site_administrators, site_role_of
from .users import new_user_errors, raise_refusals, user_create, username_errors

# Roles in a tournament
# ----------------------------------------------------------------------------------


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


def _membership_save(tournament: Tournament, user, role: Role, team: Team | None):
    membership = Membership(tournament=tournament, user=user, role=role, team=team)
    membership.full_clean()
    membership.save()
    return membership


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
            if bad := username_errors(username):  # said rather than "no user"
                raise_refusals(errors + bad)
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
            errors.extend(new_user_errors(username, password))
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
    raise_refusals(errors)
    if user is None:
        user = user_create(username, password or "")
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


# Invitations to a role in a tournament
# ----------------------------------------------------------------------------------


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
) -> NewLink[Invitation]:
    """A one-time link for `role`, valid for `days` (settings.INVITATION_DAYS
    unless given)."""
    role = Role(role)
    return link_create(
        Invitation(tournament=tournament, role=role, team=team),
        user=user,
        name=name,
        email=email,
        days=days,
        errors=_role_errors(tournament=tournament, role=role, team=team),
    )


def invitation_mail(*, invitation: Invitation, link: str) -> None:
    """Mail the link to the address the organizer gave (link_mail), its expiry in
    the tournament's zone."""
    what = invitation.get_role_display().lower()
    if invitation.team is not None:
        what += f" of {invitation.team.name}"
    link_mail(
        invitation,
        url=link,
        where=invitation.tournament.name,
        what=what,
        time_zone=invitation.tournament.time_zone,
    )


def invitation_refusal(invitation: Invitation | None) -> RuleError | None:
    """Why this invitation cannot be accepted now, or None."""
    return link_refusal(
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


def _invitation_refusals(invitation: Invitation, holder) -> list[RuleError]:
    """The role's rules, then, for a signed-in holder, a role they hold already."""
    role = Role(invitation.role)
    errors = _role_errors(
        tournament=invitation.tournament, role=role, team=invitation.team
    )
    if holder is not None and (
        taken := _role_taken(invitation.tournament, holder, role)
    ):
        errors.append(taken)
    return errors


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
    return link_accept(
        Invitation.objects.select_related("tournament", "team"),
        key=key,
        user=user,
        username=username,
        password=password,
        refusal=invitation_refusal,
        refusals=_invitation_refusals,
        give=lambda invitation, holder: _membership_save(
            invitation.tournament, holder, Role(invitation.role), invitation.team
        ),
    )


@transaction.atomic
def invitation_withdraw(*, invitation: Invitation, user) -> Invitation:
    return link_withdraw(
        invitation,
        user=user,
        used=marked("This invitation was accepted already; remove the role instead."),
    )


# The site's roles: tournament creators and site administrators
# ----------------------------------------------------------------------------------

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


def _site_role_taken(user, role: SiteRole) -> RuleError | None:
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
    permissions_forget(user)
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
    permissions_forget(user)
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


# Invitations to the site's roles
# ----------------------------------------------------------------------------------


@transaction.atomic
def site_invitation_create(
    *, user, role: str, name: str = "", email: str = "", days: int | None = None
) -> NewLink[SiteInvitation]:
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
    return link_create(
        SiteInvitation(role=role),
        user=user,
        name=name,
        email=email,
        days=days,
        errors=errors,
    )


def site_invitation_mail(*, invitation: SiteInvitation, link: str) -> None:
    """Mail the link to the address given (link_mail), its expiry in the site's
    zone."""
    what = {
        SiteRole.CREATOR: "a tournament creator: you may create tournaments",
        SiteRole.ADMINISTRATOR: (
            "an administrator of the site: you may create tournaments and invite "
            "creators and administrators"
        ),
    }[SiteRole(invitation.role)]
    link_mail(
        invitation,
        url=link,
        where="the tournament site",
        what=what,
        time_zone=settings.TIME_ZONE,
    )


def site_invitation_refusal(invitation: SiteInvitation | None) -> RuleError | None:
    """Why this invitation cannot be accepted now, or None."""
    return link_refusal(
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


def _site_invitation_refusals(invitation: SiteInvitation, holder) -> list[RuleError]:
    """A standing the signed-in holder has already (or a greater one)."""
    if holder is not None and (
        taken := _site_role_taken(holder, SiteRole(invitation.role))
    ):
        return [taken]
    return []


def _site_role_give(invitation: SiteInvitation, user):
    site_role_grant(user=user, role=SiteRole(invitation.role))
    return user


@transaction.atomic
def site_invitation_accept(
    *, key: str, user=None, username: str = "", password: str = ""
):
    """Accept an invitation as the signed-in `user`, or as a new user made from
    `username` and `password`: that user gets the standing; the link stops. Answers
    the user."""
    return link_accept(
        SiteInvitation.objects.all(),
        key=key,
        user=user,
        username=username,
        password=password,
        refusal=site_invitation_refusal,
        refusals=_site_invitation_refusals,
        give=_site_role_give,
    )


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
