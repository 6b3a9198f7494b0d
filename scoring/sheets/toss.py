"""The toss of a knockout sheet (rules.md §6): after equal totals at the end of the
extra deals, who won the toss and whom the winner chose to deal the sudden-death deal;
and taking back a toss entered by mistake. Each write as services.py writes a sheet: one
transaction, the match row locked, refused when locked or stale, recomputed, in the
history."""

from __future__ import annotations

from django.db import transaction

from tournament.domain.errors import ConflictError, marked

from ..domain import tiebreak
from ..domain.rules import Side, Stage
from ..models import Match, SheetAction
from .locking import Origin, change, rescore, sheet_open, sheet_rows
from .selectors import sheet_settle


@transaction.atomic
def score_sheet_toss_record(
    *,
    match_id: int,
    user,
    version: int | None,
    winner: str,
    first_dealer: str,
    idempotency_key: str | None = None,
    origin: Origin | None = None,
) -> Match:
    """The toss after equal totals at the end of the extra deals (rules.md §6): who
    won it and whom the winner chose to deal the sudden-death deal."""
    match = sheet_open(
        match_id=match_id,
        version=version,
        action=marked("record a toss"),
        idempotency_key=idempotency_key,
    )
    if match.stage != Stage.KNOCKOUT or match.deals_scheduled is None:
        raise ConflictError(
            "toss_not_knockout",
            marked("only a knockout match of stipulated deals has a toss."),
        )
    deals, penalties = sheet_rows(match)
    _, settled = sheet_settle(match, deals, penalties)
    if settled is None:
        raise AssertionError("a knockout sheet of stipulated deals has a tie-break")
    why = tiebreak.toss_due(settled)
    if why is not None:
        raise ConflictError(
            "toss_not_due", marked("Nothing was saved: %(why)s."), why=why
        )
    match.toss_winner, match.first_dealer = Side(winner).value, Side(first_dealer).value
    rescore(match, deals, penalties)
    change(
        match,
        SheetAction.TOSS,
        user=user,
        after={"winner": match.toss_winner, "first_dealer": match.first_dealer},
        idempotency_key=idempotency_key,
        origin=origin,
    )
    return match


@transaction.atomic
def score_sheet_toss_delete(
    *,
    match_id: int,
    user,
    version: int | None,
    idempotency_key: str | None = None,
    origin: Origin | None = None,
) -> Match:
    """Take back a toss entered by mistake, while its sudden-death deal is not in."""
    match = sheet_open(
        match_id=match_id,
        version=version,
        action=marked("delete the toss"),
        idempotency_key=idempotency_key,
    )
    if not match.toss_winner:
        raise ConflictError("no_toss", marked("no toss is recorded on this sheet."))
    deals, penalties = sheet_rows(match)
    sudden = tiebreak.deciding_deal(match.deals_scheduled or 0)
    if any(d.number == sudden for d in deals):
        raise ConflictError(
            "toss_played",
            marked(
                "deal %(sudden)s, played after the toss, is on the sheet; delete it "
                "first."
            ),
            sudden=sudden,
        )
    before = {"winner": match.toss_winner, "first_dealer": match.first_dealer}
    match.toss_winner = match.first_dealer = ""
    rescore(match, deals, penalties)
    change(
        match,
        SheetAction.TOSS_DELETE,
        user=user,
        before=before,
        idempotency_key=idempotency_key,
        origin=origin,
    )
    return match
