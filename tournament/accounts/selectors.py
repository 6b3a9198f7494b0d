"""Reads of people's roles (docs/people.md): a tournament's roles and its invitations
out; the site's standing of people (who may create tournaments, who administers the
site) and the site's invitations out."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db.models import Q, QuerySet

from ..models import Invitation, Membership, SiteInvitation, SiteRole, Tournament
from .invitations import link_get

# A tournament's roles and invitations
# ----------------------------------------------------------------------------------


def membership_list(*, tournament: Tournament) -> QuerySet[Membership]:
    return Membership.objects.filter(tournament=tournament).select_related(
        "user", "team"
    )


def invitation_list(*, tournament: Tournament) -> QuerySet[Invitation]:
    """Newest first, with who made and who accepted each."""
    return Invitation.objects.filter(tournament=tournament).select_related(
        "team", "created_by", "accepted_by"
    )


def invitation_get(*, key: str) -> Invitation | None:
    """The invitation of a link's key, whatever its state."""
    return link_get(
        Invitation.objects.select_related("tournament", "team", "created_by"), key=key
    )


# The site's standing of people and its invitations
# ----------------------------------------------------------------------------------

CREATE = "tournament.add_tournament"
ADMINISTER = "tournament.administer_site"


def site_role_of(user) -> SiteRole | None:
    """The user's standing on the site: an administrator (a superuser is one), a
    creator, or None. An inactive or anonymous user has none."""
    if user is None or not user.is_authenticated or not user.is_active:
        return None
    if user.is_superuser or user.has_perm(ADMINISTER):
        return SiteRole.ADMINISTRATOR
    if user.has_perm(CREATE):
        return SiteRole.CREATOR
    return None


def may_create_tournaments(user) -> bool:
    """Creating (or importing) a tournament: creators and administrators."""
    return site_role_of(user) is not None


RATE = "tournament.rate_tournament"


def may_rate_tournament(user, tournament=None) -> bool:
    """Marking a tournament rated, or not (docs/ratings.md, "What the site trusts"):
    a site administrator, any tournament; a trusted creator (one a site
    administrator gave `rate_tournament`), the tournaments they organize (with
    `tournament` None: one they are about to create)."""
    role = site_role_of(user)
    if role == SiteRole.ADMINISTRATOR:
        return True
    if role is None or not user.has_perm(RATE):
        return False
    if tournament is None:
        return True
    return Membership.objects.filter(
        tournament=tournament, user=user, role="organizer"
    ).exists()


def is_site_administrator(user) -> bool:
    return site_role_of(user) == SiteRole.ADMINISTRATOR


def _holders(codenames: tuple[str, ...]) -> Q:
    permissions = Permission.objects.filter(
        content_type__app_label="tournament", codename__in=codenames
    )
    return Q(user_permissions__in=permissions) | Q(groups__permissions__in=permissions)


def site_administrators() -> QuerySet:
    """The active users who administer the site."""
    users = get_user_model().objects.filter(is_active=True)
    return users.filter(
        pk__in=users.filter(
            Q(is_superuser=True) | _holders(("administer_site",))
        ).values("pk")
    )


@dataclass(frozen=True)
class SitePerson:
    user: object
    role: SiteRole
    superuser: bool

    @property
    def id(self) -> int:
        return self.user.pk  # type: ignore[attr-defined]

    @property
    def username(self) -> str:
        return self.user.username  # type: ignore[attr-defined]


def site_people_list() -> list[SitePerson]:
    """Every active creator and administrator, administrators first, by username."""
    users = get_user_model().objects.filter(is_active=True)
    holders = users.filter(
        pk__in=users.filter(
            Q(is_superuser=True) | _holders(("add_tournament", "administer_site"))
        ).values("pk")
    ).order_by("username")
    people = [
        SitePerson(user, role, user.is_superuser)
        for user in holders
        if (role := site_role_of(user)) is not None
    ]
    return sorted(people, key=lambda p: p.role != SiteRole.ADMINISTRATOR)


def site_person_get(*, pk: int) -> SitePerson | None:
    user = get_user_model().objects.filter(pk=pk, is_active=True).first()
    role = site_role_of(user)
    return SitePerson(user, role, user.is_superuser) if role and user else None


def site_invitation_list() -> QuerySet[SiteInvitation]:
    """Newest first, with who made, accepted and withdrew each."""
    return SiteInvitation.objects.select_related(
        "created_by", "accepted_by", "withdrawn_by"
    )


def site_invitation_get(*, key: str) -> SiteInvitation | None:
    """The invitation of a link's key, whatever its state."""
    return link_get(SiteInvitation.objects.select_related("created_by"), key=key)
