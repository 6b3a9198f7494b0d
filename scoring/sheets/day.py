"""The tournament day on a score sheet (rules.md §9): forfeits, and disputes with
their rulings. Writes like services.py's: one transaction each, under a lock of the
match row, with a history row; the rules of a forfeit are domain/forfeits.py's."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournament.domain.errors import (
    ConflictError,
    ForbiddenError,
    RuleError,
    marked,
)
from tournament.domain.types import Role
from tournament.models import account
from tournament.web.zones import told

from ..domain import rules, tiebreak
from ..domain.forfeits import Absent, forfeit_winner
from ..domain.rules import MatchStatus, Side, Stage
from ..models import Deal, Dispute, Match, SheetAction
from .locking import actor_name, change, match_locked, replay_check, sheet_open
from .services import sheet_locked_after


def words_check(text: str | None, field: str, what: str, limit: int) -> str:
    text = (text or "").strip()
    if not text:
        raise RuleError(
            "required",
            marked("say %(what)s; the history keeps it"),
            field=field,
            what=what,
        )
    if len(text) > limit:
        raise RuleError(
            "too_long",
            marked("at most %(limit)s characters, not %(count)s"),
            field=field,
            limit=limit,
            count=len(text),
        )
    return text


@transaction.atomic
def score_sheet_forfeit(
    *,
    match_id: int,
    user,
    absent: str,
    reason: str,
    version: int | None,
    idempotency_key: str | None = None,
) -> Match:
    """An organizer records that a team (A, B, or both) did not come to a match
    (rules.md §9): the sheet locks with status `forfeited`, totals 0, the present
    team as the winner. Only a sheet with no deal; in the knockout one team must be
    present, and it moves on as after a confirmation."""
    reason = words_check(reason, "reason", marked("why the match is forfeited"), 300)
    match = sheet_open(
        match_id=match_id,
        version=version,
        action=marked("record a forfeit"),
        idempotency_key=idempotency_key,
    )
    return sheet_forfeit_locked(
        match,
        Absent(absent),
        reason=reason,
        user=user,
        idempotency_key=idempotency_key,
    )


def sheet_forfeit_locked(
    match: Match,
    absent: Absent,
    *,
    reason: str,
    user,
    idempotency_key: str | None = None,
) -> Match:
    """Forfeit a match that sheet_open (or a withdrawal) has locked and checked."""
    deals = Deal.objects.filter(match=match).count()
    winner = forfeit_winner(absent, deals=deals, knockout=match.stage == Stage.KNOCKOUT)
    before = {"status": match.status}
    match.status = MatchStatus.FORFEITED
    match.forfeit_absent, match.forfeit_reason = absent.value, reason
    match.winner = winner.value if winner else ""
    match.total_a = match.total_b = match.deals_won_a = match.deals_won_b = 0
    match.confirmed_a_version = match.confirmed_b_version = None
    match.version += 1
    match.save()
    change(
        match,
        SheetAction.FORFEIT,
        user=user,
        before=before,
        after={
            "status": match.status,
            "absent": absent.value,
            "winner": match.winner or None,
        },
        reason=reason,
        idempotency_key=idempotency_key,
    )
    sheet_locked_after(match, user)
    return match


def dispute_raiser(*, roles: frozenset[Role], sides: frozenset[Side]) -> str:
    """How a person may raise a dispute on a sheet, as the history names it, or ""
    when they may not: an organizer, a scorer, or a captain of either team."""
    if Role.ORGANIZER in roles:
        return "organizer"
    if Role.SCORER in roles:
        return "scorer"
    if sides:
        return f"captain of {' and '.join(sorted(s.value for s in sides))}"
    return ""


@transaction.atomic
def score_sheet_dispute_raise(
    *,
    match_id: int,
    user,
    text: str,
    deal: int | None = None,
    roles: frozenset[Role],
    sides: frozenset[Side],
    idempotency_key: str | None = None,
) -> Dispute:
    """A captain of either team, a scorer or an organizer disputes a deal or the
    whole match, in words (rules.md §9). The sheet cannot be confirmed until an
    organizer rules; the dispute is in the sheet's history, and the sheet has a new
    version (a captain confirms the sheet as it stands after the ruling): the
    confirmations it withdraws are in `withdrew` (the sides) and in the history."""
    raised_as = dispute_raiser(roles=roles, sides=sides)
    if not raised_as:
        raise ForbiddenError(
            "not_allowed_here",
            marked(
                "only a captain of either team, a scorer or an organizer of the "
                "tournament raises a dispute on this sheet."
            ),
        )
    text = words_check(text, "text", marked("what is disputed"), 2000)
    match = match_locked(match_id)
    replay_check(match, idempotency_key=idempotency_key)
    if match.status == MatchStatus.VOID:
        raise ConflictError(
            "sheet_void",
            marked("the sheet of %(match)s is void; it is not disputed."),
            match=match,
        )
    highest = match.deals_scheduled or rules.DEAL_NUMBER_MAX
    if match.deals_scheduled and match.stage == Stage.KNOCKOUT:
        highest += tiebreak.TIEBREAK_DEALS  # the extra deals and the sudden death
    if deal is not None and not 1 <= deal <= highest:
        raise RuleError(
            "deal_out_of_range",
            marked(
                "this match has deals 1 to %(highest)s; leave the deal out to dispute"
                " the whole match"
            ),
            field="deal",
            highest=highest,
        )
    dispute = Dispute.objects.create(
        match=match,
        deal=deal,
        text=text,
        raised_by=account(user),
        raised_by_name=actor_name(user),
        raised_as=raised_as,
        raised_at=timezone.now(),
    )
    # A new version: the sheet as the captains confirm it now has a dispute on it
    # (and a backup's copy of the sheet at the old version is old). A confirmation
    # of the sheet as it was is withdrawn by that: the page says so to its captain.
    dispute.withdrew = frozenset(
        side
        for side, confirmed in (
            (Side.A, match.confirmed_a_version),
            (Side.B, match.confirmed_b_version),
        )
        if confirmed == match.version
    )
    match.open_disputes += 1
    match.version += 1
    match.save(update_fields=["open_disputes", "version", "updated_at"])
    change(
        match,
        SheetAction.DISPUTE,
        user=user,
        after={
            **dispute.record(),
            "raised_as": raised_as,
            "confirmations_withdrawn": sorted(s.value for s in dispute.withdrew),
        },
        idempotency_key=idempotency_key,
    )
    return dispute


@transaction.atomic
def score_sheet_dispute_rule(
    *,
    match_id: int,
    dispute_id: int,
    user,
    ruling: str,
    idempotency_key: str | None = None,
) -> Dispute:
    """An organizer rules on an open dispute, in words, for the Rules Committee; that
    closes it. A change the ruling needs is made on the sheet as usual."""
    ruling = words_check(ruling, "ruling", marked("the ruling"), 2000)
    match = match_locked(match_id)
    replay_check(match, idempotency_key=idempotency_key)
    dispute = (
        Dispute.objects.select_for_update().filter(match=match, pk=dispute_id).first()
    )
    if dispute is None:
        raise Dispute.DoesNotExist(f"no dispute {dispute_id} on match {match_id}")
    if not dispute.open:
        raise ConflictError(
            "dispute_ruled",
            marked(
                "dispute %(dispute)s was ruled on at %(when)s by %(ruled_by_name)s: "
                "%(ruling)s"
            ),
            dispute=dispute.pk,
            when=told(dispute.ruled_at, "Y-m-d H:i", match.tournament.time_zone),
            ruled_by_name=dispute.ruled_by_name,
            ruling=dispute.ruling,
        )
    dispute.ruling = ruling
    dispute.ruled_by = account(user)
    dispute.ruled_by_name = actor_name(user)
    dispute.ruled_at = timezone.now()
    dispute.save()
    match.open_disputes -= 1
    match.version += 1
    match.save(update_fields=["open_disputes", "version", "updated_at"])
    change(
        match,
        SheetAction.RULING,
        user=user,
        before=dispute.record(),
        after={"dispute": dispute.pk, "ruling": ruling},
        reason=ruling,
        idempotency_key=idempotency_key,
    )
    return dispute
