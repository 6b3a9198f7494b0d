"""Every write to a score sheet: one transaction each, under a lock of the match row.

Each write locks the match (`select_for_update`; SQLite's IMMEDIATE transactions do
the same for the embedded default), refuses a locked sheet or a stale `version` with
409, checks the rules, writes the row, recomputes the whole sheet with
rules.score_sheet (awards, warnings, totals, status, winner), bumps the version and
appends a SheetChange with who, before and after. Nothing is written when any step
refuses.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tournament.backups.services import backup_before_reopening
from tournament.backups.tasks import sheet_copy_keep
from tournament.domain.errors import (
    ConflictError,
    ForbiddenError,
    RuleError,
    RuleErrors,
    marked,
)
from tournament.domain.rulesets import ruleset_get
from tournament.domain.types import Role
from tournament.models import account
from tournament.ops.queue import task_send_on_commit
from tournament.selectors import match_roster

from ..domain import rules, tiebreak
from ..domain.auction import auction_check, auction_parse
from ..domain.rules import MatchStatus, PenaltyKind, Side, Stage
from ..models import (
    Deal,
    Match,
    Penalty,
    SheetAction,
)
from ..signals import sheet_locked, sheet_reopening
from .locking import (
    DEAL_FIELDS,
    Origin,
    change,
    replay_check,
    rescore,
    sheet_open,
    sheet_rows,
    version_check,
)

# Creating and deleting sheets are in matches.py; callers find them here too.
from .matches import MatchPlan, match_create, match_delete, matches_create  # noqa: F401
from .selectors import (
    sheet_settle,
)

logger = logging.getLogger(__name__)


# Deals
# ----------------------------------------------------------------------------------


def bidder_check(match: Match, declarer: str, bidder: str) -> str:
    """The bidder as the roster spells him: one of the declaring team's players in
    this match (after substitutions, rules.md §9); "" when not recorded."""
    bidder = " ".join(bidder.split())
    if not bidder:
        return ""
    roster = match_roster(
        team_a=match.team_a_id,
        team_b=match.team_b_id,
        stage=match.stage,
        round=match.round,
    )[Side(declarer).value]
    for name in roster:
        if name.casefold() == bidder.casefold():
            return name
    raise RuleError(
        "bidder_not_declarer",
        marked(
            "%(bidder)s did not play for the declaring team %(declarer)s in this "
            "match; the bidder is one of %(players)s, or leave it empty."
        ),
        field="bidder",
        bidder=bidder,
        declarer=declarer,
        players=", ".join(roster) or "its players",
    )


def auction_of(match: Match, deal: rules.Deal, text: str) -> str:
    """The auction as the notation writes it (docs/auction.md), checked to end on
    the deal's contract at a table of this tournament's size; "" when not recorded."""
    text = " ".join(text.split())
    if not text:
        return ""
    auction_check(
        text,
        declarer=deal.declarer,
        value=deal.value,
        trump=deal.trump,
        level=deal.level,
        players=2 * match.tournament.players_per_team,
        # A sheet of the first edition was checked without 001's rule (rules.Edition).
        lead_may_pass=ruleset_get(match.tournament.ruleset).lead_may_pass
        or match.rules_edition == rules.Edition.FIRST,
    )
    return str(auction_parse(text))


def deal_extras(
    match: Match, deal: rules.Deal, bidder: str, auction: str
) -> tuple[str, str]:
    """The bidder and the auction of a deal, both checked; every problem at once."""
    found: dict[str, str] = {}
    errors: list[RuleError] = []
    for name, check in (
        ("bidder", lambda: bidder_check(match, deal.declarer.value, bidder)),
        ("auction", lambda: auction_of(match, deal, auction)),
    ):
        try:
            found[name] = check()
        except RuleError as error:
            errors.append(error)
    if errors:
        raise errors[0] if len(errors) == 1 else RuleErrors(errors)
    return found["bidder"], found["auction"]


def deal_check(match: Match, values: dict[str, Any]) -> rules.Deal:
    allowed = match.deals_scheduled
    if match.stage == Stage.KNOCKOUT and allowed is not None:
        # The tie-break may add deals; which of them the state opens is checked on
        # the whole sheet (tiebreak.problems, in rescore).
        allowed += tiebreak.TIEBREAK_DEALS
    return rules.deal_from_values(**values, deals_allowed=allowed)


@transaction.atomic
def score_sheet_deal_record(
    *,
    match_id: int,
    user,
    version: int | None,
    idempotency_key: str | None = None,
    origin: Origin | None = None,
    **values: Any,
) -> tuple[Deal, Match]:
    """Add deal `number` to the sheet (rules.md §2). 409 if the number is taken by a
    different deal; the same deal already there is a retry, answered by Replayed."""

    rows: list[tuple[list[Deal], list[Penalty]]] = []

    def done(match: Match) -> bool:
        rows.append(sheet_rows(match))  # read once, under the lock, and used below
        try:
            deal = deal_check(match, values)
        except (RuleError, RuleErrors):
            return False  # refused below, in the usual order (locked, stale, rules)
        return any(
            all(getattr(d, f) == getattr(deal, f) for f in DEAL_FIELDS)
            for d in rows[0][0]
        )

    bidder = values.pop("bidder", "") or ""
    auction = values.pop("auction", "") or ""
    match = sheet_open(
        match_id=match_id,
        version=version,
        action=marked("add a deal"),
        done=done,
        idempotency_key=idempotency_key,
    )
    checked = deal_check(match, values)
    bidder, auction = deal_extras(match, checked, bidder, auction)
    deals, penalties = rows[0]
    if any(d.number == checked.number for d in deals):
        raise ConflictError(
            "deal_number_taken",
            marked(
                "deal %(number)s is already on the sheet; replace it instead, or give"
                " the number of the deal you mean."
            ),
            field="number",
            number=checked.number,
        )
    if match.deals_scheduled is None and match.status == MatchStatus.COMPLETED:
        raise ConflictError(
            "match_over",
            marked("the match is over: a team has no tables left."),
        )
    deal = Deal(
        match=match,
        bidder=bidder,
        auction=auction,
        entered_by=account(user),
    )
    for field in DEAL_FIELDS:
        setattr(deal, field, getattr(checked, field))
    deals.append(deal)
    deals.sort(key=lambda d: d.number)
    rescore(match, deals, penalties)
    change(
        match,
        SheetAction.DEAL_ADD,
        user=user,
        after=deal.record(),
        idempotency_key=idempotency_key,
        origin=origin,
    )
    return deal, match


def _deal_locked(match: Match, number: int) -> tuple[Deal, list[Deal], list[Penalty]]:
    deals, penalties = sheet_rows(match)
    for deal in deals:
        if deal.number == number:
            return deal, deals, penalties
    raise ConflictError(
        "no_such_deal",
        marked("there is no deal %(number)s on this sheet."),
        field="number",
        number=number,
    )


@transaction.atomic
def score_sheet_deal_replace(
    *,
    match_id: int,
    number: int,
    user,
    version: int | None,
    idempotency_key: str | None = None,
    origin: Origin | None = None,
    **values: Any,
) -> tuple[Deal, Match]:
    """Replace what deal `number` records; its penalties stay with it."""
    bidder = values.pop("bidder", "") or ""
    auction = values.pop("auction", "") or ""
    match = sheet_open(
        match_id=match_id,
        version=version,
        action=marked("change a deal"),
        idempotency_key=idempotency_key,
    )
    checked = deal_check(match, {"number": number, **values})
    bidder, auction = deal_extras(match, checked, bidder, auction)
    deal, deals, penalties = _deal_locked(match, number)
    before = deal.record()
    for field in DEAL_FIELDS:
        setattr(deal, field, getattr(checked, field))
    deal.bidder, deal.auction = bidder, auction
    deal.entered_by = account(user)
    deal.save()
    rescore(match, deals, penalties)
    change(
        match,
        SheetAction.DEAL_REPLACE,
        user=user,
        before=before,
        after=deal.record(),
        idempotency_key=idempotency_key,
        origin=origin,
    )
    return deal, match


@transaction.atomic
def score_sheet_deal_delete(
    *,
    match_id: int,
    number: int,
    user,
    version: int | None,
    idempotency_key: str | None = None,
    origin: Origin | None = None,
) -> Match:
    match = sheet_open(
        match_id=match_id,
        version=version,
        action=marked("delete a deal"),
        idempotency_key=idempotency_key,
    )
    deal, deals, penalties = _deal_locked(match, number)
    if any(p.deal_id == deal.pk for p in penalties):
        raise ConflictError(
            "deal_has_penalties",
            marked(
                "deal %(number)s has penalties; delete them first, so that no penalty"
                " is lost without a trace."
            ),
            field="number",
            number=number,
        )
    before = deal.record()
    deals.remove(deal)
    deal.delete()
    rescore(match, deals, penalties)
    change(
        match,
        SheetAction.DEAL_DELETE,
        user=user,
        before=before,
        idempotency_key=idempotency_key,
        origin=origin,
    )
    return match


# Penalties
# ----------------------------------------------------------------------------------


@transaction.atomic
def score_sheet_penalty_record(
    *,
    match_id: int,
    user,
    version: int | None,
    deal: int,
    offender: str,
    kind: str,
    points: int | None = None,
    note: str = "",
    by_organizer: bool,
    idempotency_key: str | None = None,
    origin: Origin | None = None,
) -> tuple[Penalty, Match]:
    """A penalty in deal `deal` (rules.md §3); its points go to the other team."""
    match = sheet_open(
        match_id=match_id,
        version=version,
        action=marked("add a penalty"),
        idempotency_key=idempotency_key,
    )
    the_kind = PenaltyKind(kind)
    if the_kind is PenaltyKind.CONDUCT and not by_organizer:
        raise ForbiddenError(
            "conduct_by_organizer",
            marked(
                "a conduct penalty's points are set by the organizer; "
                "ask an organizer to enter it."
            ),
            field="kind",
        )
    rules.check_penalty_points(the_kind, points, ruleset_get(match.tournament.ruleset))
    deals, penalties = sheet_rows(match)
    target = next((d for d in deals if d.number == deal), None)
    if target is None:
        raise RuleError(
            "no_such_deal",
            marked(
                "there is no deal %(number)s on this sheet yet; enter the deal first,"
                " then its penalty."
            ),
            field="deal",
            number=deal,
        )
    penalty = Penalty(
        deal=target,
        offender=Side(offender).value,
        kind=the_kind.value,
        points=points if the_kind is PenaltyKind.CONDUCT else 0,
        note=note,
        entered_by=account(user),
    )
    penalties.append(penalty)
    rescore(match, deals, penalties)
    change(
        match,
        SheetAction.PENALTY_ADD,
        user=user,
        after=penalty.record(deal),
        idempotency_key=idempotency_key,
        origin=origin,
    )
    return penalty, match


@transaction.atomic
def score_sheet_penalty_delete(
    *,
    match_id: int,
    penalty_id: int,
    user,
    version: int | None,
    idempotency_key: str | None = None,
    origin: Origin | None = None,
) -> Match:
    match = sheet_open(
        match_id=match_id,
        version=version,
        action=marked("delete a penalty"),
        idempotency_key=idempotency_key,
    )
    deals, penalties = sheet_rows(match)
    penalty = next((p for p in penalties if p.pk == penalty_id), None)
    if penalty is None:
        raise ConflictError(
            "no_such_penalty",
            marked("there is no penalty %(penalty_id)s on this sheet."),
            field="penalty",
            penalty_id=penalty_id,
        )
    number = next(d.number for d in deals if d.pk == penalty.deal_id)
    before = penalty.record(number)
    penalties.remove(penalty)
    penalty.delete()
    rescore(match, deals, penalties)
    change(
        match,
        SheetAction.PENALTY_DELETE,
        user=user,
        before=before,
        idempotency_key=idempotency_key,
        origin=origin,
    )
    return match


# Confirmation
# ----------------------------------------------------------------------------------


def _lock(match: Match, user, *, idempotency_key: str | None = None) -> None:
    match.status = MatchStatus.CONFIRMED
    match.confirmed_at = timezone.now()
    match.confirmed_by = account(user)
    match.version += 1
    match.save(
        update_fields=[
            "status",
            "confirmed_at",
            "confirmed_by",
            "version",
            "updated_at",
        ]
    )
    change(
        match,
        SheetAction.LOCK,
        user=user,
        before={"status": MatchStatus.COMPLETED.value},
        after={"status": MatchStatus.CONFIRMED.value},
        idempotency_key=idempotency_key,
    )
    sheet_locked_after(match, user)


def sheet_locked_after(match: Match, user) -> None:
    """What follows a sheet's locking, confirmed or forfeited: the bracket moves the
    winner on, and the next backup gets a copy of the sheet."""
    sheet_locked.send(sender=Match, match=match, user=user)
    if settings.BACKUP_AUTOMATIC:
        # A copy of the locked sheet for the next backup of its tournament, made
        # after the commit and off the request in production (docs/backups.md). A
        # copy not made costs nothing but time: a backup reads afresh, and keeps, a
        # sheet it finds no copy of at its version.
        task_send_on_commit(
            sheet_copy_keep,
            [match.pk],
            missed="the next backup of the tournament copies the sheet itself",
        )


@transaction.atomic
def score_sheet_confirm(
    *,
    match_id: int,
    user,
    version: int,
    roles: frozenset[Role],
    sides: frozenset[Side],
    idempotency_key: str | None = None,
) -> Match:
    """A captain confirms for his team (`sides`), an organizer for both (rules.md §7).

    The sheet locks when both captains have confirmed the version it is at now, or at
    once when an organizer confirms. Any later change of the sheet makes an earlier
    confirmation stale, because it changes the version.
    """
    organizer = Role.ORGANIZER in roles
    if not organizer and not sides:  # who may confirm comes before how the sheet is
        match = Match.objects.select_related("team_a", "team_b").get(pk=match_id)
        raise ForbiddenError(
            "not_a_captain_here",
            marked(
                "only the captains of %(team_a)s and %(team_b)s, or an organizer, "
                "confirm this sheet."
            ),
            team_a=match.team_a,
            team_b=match.team_b,
        )
    match = sheet_open(
        match_id=match_id,
        version=version,
        action=marked("confirm"),
        idempotency_key=idempotency_key,
    )
    if match.open_disputes:
        raise ConflictError(
            "dispute_open",
            marked(
                "The sheet cannot be confirmed while 1 dispute is open: an organizer "
                "rules on it first."
            )
            if match.open_disputes == 1
            else marked(
                "The sheet cannot be confirmed while %(open_disputes)s disputes are "
                "open: an organizer rules on them first."
            ),
            open_disputes=match.open_disputes,
        )
    if match.status != MatchStatus.COMPLETED:
        sheet, settled = sheet_settle(match, *sheet_rows(match))
        if settled is not None and settled.phase is tiebreak.Phase.TOSS:
            raise ConflictError(
                "sheet_incomplete",
                marked("The sheet cannot be confirmed yet: %(reason)s."),
                reason=settled.reason,
            )
        shown = ", ".join(str(n) for n in sheet.missing[:6])
        if len(sheet.missing) > 6:
            shown += " …"
        if len(sheet.missing) == 1:
            why = marked(
                "The sheet cannot be confirmed yet: deal %(missing)s is not on the "
                "sheet yet."
            )
        elif sheet.missing:
            why = marked(
                "The sheet cannot be confirmed yet: deals %(missing)s are not on the "
                "sheet yet."
            )
        elif match.deals_scheduled is None:
            why = marked(
                "The sheet cannot be confirmed yet: both teams still have tables."
            )
        else:
            why = marked(
                "The sheet cannot be confirmed yet: the totals are equal: tie-break "
                "deals follow."
            )
        raise ConflictError(
            "sheet_incomplete", why, **({"missing": shown} if sheet.missing else {})
        )
    if organizer:
        _lock(match, user, idempotency_key=idempotency_key)
        return match
    for side in sorted(sides):
        before = {"side": side.value, "confirmed_version": _confirmed(match, side)}
        if side is Side.A:
            match.confirmed_a_version = version
        else:
            match.confirmed_b_version = version
        change(
            match,
            SheetAction.CONFIRM,
            user=user,
            before=before,
            after={"side": side.value, "confirmed_version": version},
            idempotency_key=idempotency_key,
        )
        idempotency_key = None  # kept on the first row only
    match.save(update_fields=["confirmed_a_version", "confirmed_b_version"])
    if match.confirmed_a_version == match.confirmed_b_version == match.version:
        _lock(match, user)
    return match


def _confirmed(match: Match, side: Side) -> int | None:
    return match.confirmed_a_version if side is Side.A else match.confirmed_b_version


@transaction.atomic
def score_sheet_reopen(
    *,
    match_id: int,
    user,
    reason: str,
    version: int | None = None,
    reset_next: bool = False,
    idempotency_key: str | None = None,
) -> Match:
    """An organizer unlocks a confirmed sheet; the reason goes into the history.

    A knockout sheet whose winner already plays on is refused unless `reset_next`
    (the bracket's receiver of sheet_reopening says what that resets).
    """
    reason = (reason or "").strip()
    if not reason:
        raise RuleError(
            "reason_missing",
            marked("say why the sheet is reopened; the history keeps the reason."),
            field="reason",
        )
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("tournament", "team_a", "team_b")
        .get(pk=match_id)
    )
    replay_check(match, idempotency_key=idempotency_key)
    version_check(match, version)
    if match.status == MatchStatus.VOID:
        raise ConflictError(
            "sheet_void",
            marked("the sheet of %(match)s is void; a void sheet is not reopened."),
            match=match,
        )
    if not match.final:
        raise ConflictError(
            "sheet_not_confirmed",
            marked(
                "the sheet of %(match)s is not confirmed; there is nothing to reopen."
            ),
            match=match,
        )
    backup_before_reopening(match=match, user=user)
    sheet_reopening.send(
        sender=Match, match=match, user=user, reason=reason, reset_next=reset_next
    )
    before: dict[str, Any] = {"status": match.status}
    if match.status == MatchStatus.FORFEITED:
        # rules.md §9: reopening undoes the forfeit; the sheet is as it was, empty.
        before.update(absent=match.forfeit_absent, winner=match.winner or None)
        match.forfeit_absent = match.forfeit_reason = match.winner = ""
    sheet, _ = sheet_settle(match, *sheet_rows(match))
    _unlock(match, rules.sheet_status(sheet, knockout=match.stage == Stage.KNOCKOUT))
    change(
        match,
        SheetAction.REOPEN,
        user=user,
        before=before,
        after={"status": match.status},
        reason=reason,
        idempotency_key=idempotency_key,
    )
    return match


def _unlock(match: Match, status: MatchStatus) -> None:
    """The sheet leaves its confirmation behind: its new status, no confirmations, a
    new version."""
    match.status = status
    match.confirmed_a_version = match.confirmed_b_version = None
    match.confirmed_at = None
    match.confirmed_by = None
    match.version += 1
    match.save()


@transaction.atomic
def score_sheet_void(*, match_id: int, user, reason: str) -> Match:
    """Set a sheet aside for good (a knockout reset): its rows stay as they were, it
    accepts no change and counts for nothing. The reason goes into the history."""
    match = Match.objects.select_for_update(of=("self",)).get(pk=match_id)
    if match.status == MatchStatus.VOID:
        return match
    before = {"status": match.status}
    _unlock(match, MatchStatus.VOID)
    change(
        match,
        SheetAction.VOID,
        user=user,
        before=before,
        after={"status": MatchStatus.VOID.value},
        reason=reason,
    )
    return match
