"""Reads of a tournament's people: roles and invitations."""

from __future__ import annotations

from django.db.models import QuerySet

from ..models import Invitation, Membership, Tournament
from .services import invitation_digest


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
    return (
        Invitation.objects.select_related("tournament", "team", "created_by")
        .filter(key_digest=invitation_digest(key))
        .first()
    )
