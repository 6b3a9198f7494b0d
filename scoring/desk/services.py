"""Writes of the desk: the announcements the venue screen shows. The release of a
round is the league's service (league/services.py), called from the desk too."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from scoring.models import Announcement
from tournament.domain.errors import RuleError, marked
from tournament.models import Tournament, account


@transaction.atomic
def announcement_create(*, tournament: Tournament, user, text: str) -> Announcement:
    text = " ".join(text.split())
    if not text:
        raise RuleError("required", marked("write the announcement"), field="text")
    limit = Announcement._meta.get_field("text").max_length
    if len(text) > limit:
        raise RuleError(
            "too_long",
            marked(
                "an announcement has at most %(limit)s characters, to be read across "
                "the hall (this one has %(count)s)"
            ),
            field="text",
            limit=limit,
            count=len(text),
        )
    announcement = Announcement(
        tournament=tournament,
        text=text,
        created_by=account(user),
    )
    announcement.full_clean()
    announcement.save()
    return announcement


@transaction.atomic
def announcement_end(*, announcement: Announcement, user) -> Announcement:
    """Take an announcement off the screen (it stays on record)."""
    if announcement.ended_at is None:
        announcement.ended_at = timezone.now()
        announcement.ended_by = account(user)
        announcement.save(update_fields=["ended_at", "ended_by"])
    return announcement
