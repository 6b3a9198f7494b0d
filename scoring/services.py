"""Every write to a score sheet: one transaction each, under a lock of the match row.

Each write locks the match (`select_for_update`; SQLite's IMMEDIATE transactions do
the same for the embedded default), refuses a locked sheet or a stale `version` with
409, checks the rules, writes the row, recomputes the whole sheet with
rules.score_sheet (awards, warnings, totals, status, winner), bumps the version and
appends a SheetChange with who, before and after. Nothing is written when any step
refuses.
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import F, Max, Q, QuerySet
from django.utils import timezone

from tournament.backups import backup_before
from tournament.domain.draw import check_draw, draw_league, draw_spread
from tournament.domain.errors import (
    ConflictError,
    ForbiddenError,
    RuleError,
    RuleErrors,
)
from tournament.domain.types import Role, TournamentStatus
from tournament.models import Bye, LeagueDraw, LeagueRound, Team, Tournament

from . import exports
from .domain import rules, tiebreak
from .domain import standings as ranking
from .domain.rules import AWARDING_KINDS, MatchStatus, PenaltyKind, Side, Stage
from .models import (
    Deal,
    ExportJob,
    ExportStatus,
    Match,
    Penalty,
    SheetAction,
    SheetChange,
    StandingsLot,
)
from .selectors import (
    draw_locked_reason,
    draw_teams,
    sheet_settle,
    standings_get,
    tournament_workbook,
)
from .signals import sheet_locked, sheet_reopening

logger = logging.getLogger(__name__)
SEED_LIMIT = 2**63  # seeds are 0 .. 2**63 - 1, a PostgreSQL bigint
DEAL_FIELDS = ("number", "declarer", "value", "trump", "level", "taken")
RESULT_FIELDS = ("made", "award_to", "award", "awarded_by")


# The sheet lock, versions and history
# ----------------------------------------------------------------------------------


class Replayed(Exception):
    """The request was done before: its Idempotency-Key is in the sheet's history,
    or (a deal) the very deal is already on the sheet. Nothing is written; the caller
    answers with the sheet as it is, as it answered the first time."""

    def __init__(self, match: Match) -> None:
        super().__init__(f"already done on {match}")
        self.match = match


# The Idempotency-Key of the request being served (API), kept on the first history row
# the request writes; a slot, so that one request's key is stored once.
_REQUEST_KEY: ContextVar[list[str] | None] = ContextVar(
    "sheet_request_key", default=None
)


@contextmanager
def request_key(key: str) -> Iterator[None]:
    """Writes inside are done once per `key` and match: a retry of the same request
    (after a timeout on venue Wi-Fi, say) raises Replayed instead of writing again."""
    token = _REQUEST_KEY.set([key] if key else None)
    try:
        yield
    finally:
        _REQUEST_KEY.reset(token)


def _replay_check(match: Match, done: Callable[[Match], bool] | None = None) -> None:
    slot = _REQUEST_KEY.get()
    if slot and SheetChange.objects.filter(match=match, request_key=slot[0]).exists():
        raise Replayed(match)
    if done is not None and done(match):
        raise Replayed(match)


def _sheet_open(
    *,
    match_id: int,
    version: int | None,
    action: str,
    done: Callable[[Match], bool] | None = None,
) -> Match:
    """The match row, locked until the transaction ends; refuses a locked sheet and a
    stale version. A request done before (its key, or `done`) raises Replayed first,
    so a retry after a lost answer is answered even though its version is now stale.
    Must run inside a transaction."""
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("tournament", "team_a", "team_b")
        .get(pk=match_id)
    )
    _replay_check(match, done)
    if match.status == MatchStatus.VOID:
        raise ConflictError(
            "sheet_void",
            f"Cannot {action}: the sheet of {match} is void (set aside by an "
            "organizer; its history says why) and stays as it is.",
        )
    if match.locked:
        raise ConflictError(
            "sheet_locked",
            f"Cannot {action}: the sheet of {match} is confirmed and locked; only an "
            "organizer can reopen it (rules.md §7).",
        )
    _version_check(match, version)
    return match


def _version_check(match: Match, version: int | None) -> None:
    if version is not None and version != match.version:
        raise ConflictError(
            "stale_version",
            f"The sheet changed since you read it (you sent version {version}; it is "
            f"now version {match.version}). Nothing was saved: read it again and "
            "repeat your change if it is still needed.",
            current_version=match.version,
        )


def _actor_name(user) -> str:
    return user.get_username() if user is not None and user.is_authenticated else ""


# Where the changes being written come from: ("app", "") for the API and the pages;
# the import of a filled score sheet sets ("file", "<file>, <worksheet>, row <n>") for
# each change it makes, so the history says which file and row a deal came from.
_ORIGIN: ContextVar[tuple[str, str]] = ContextVar("sheet_change_origin")


def _change(
    match: Match,
    action: SheetAction,
    *,
    user,
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> None:
    source, origin = _ORIGIN.get(("app", ""))
    if origin and not reason:
        reason = origin
    slot = _REQUEST_KEY.get()
    SheetChange.objects.create(
        request_key=slot.pop() if slot else "",
        source=source,
        match=match,
        version=match.version,
        action=action,
        actor=user if user is not None and user.is_authenticated else None,
        actor_name=_actor_name(user),
        before=before,
        after=after,
        reason=reason,
    )


def _rows(match: Match) -> tuple[list[Deal], list[Penalty]]:
    deals = list(Deal.objects.filter(match=match).order_by("number"))
    penalties = list(Penalty.objects.filter(deal__match=match).order_by("pk"))
    return deals, penalties


def _rescore(match: Match, deals: list[Deal], penalties: list[Penalty]) -> rules.Sheet:
    """Recompute the sheet and store what changed: rows, totals, status, version.

    Rows without a primary key are inserted (their awards are set first, so the
    database's checks see complete rows).
    """
    sheet, settled = sheet_settle(match, deals, penalties)
    if settled is not None:
        found = tiebreak.problems(
            sheet, settled, deals_scheduled=match.deals_scheduled or 0
        )
        if found:
            code, message = found[0]
            field = "number" if code == "tiebreak_deal_not_open" else None
            raise ConflictError(code, f"Nothing was saved: {message}", field=field)
    results = {row.number: row.result for row in sheet.rows}
    changed_deals = []
    for deal in deals:
        r = results[deal.number]
        new = (r.made, r.award_to.value, r.award, r.awarded_by or "")
        if deal.pk is None or tuple(getattr(deal, f) for f in RESULT_FIELDS) != new:
            deal.made, deal.award_to, deal.award, deal.awarded_by = new
            if deal.pk is None:
                deal.save()
            else:
                changed_deals.append(deal)
    Deal.objects.bulk_update(changed_deals, [*RESULT_FIELDS, "updated_at"])

    by_key = {p.key: p for p in sheet.penalties}
    changed_penalties = []
    for penalty in penalties:
        r = by_key[penalty.pk or 10**9]
        if penalty.pk is None or (penalty.points, penalty.warning) != (
            r.points,
            r.warning,
        ):
            penalty.points, penalty.warning = r.points, r.warning
            if penalty.pk is None:
                penalty.save()
            else:
                changed_penalties.append(penalty)
    Penalty.objects.bulk_update(changed_penalties, ["points", "warning"])

    match.total_a, match.total_b = sheet.total_a, sheet.total_b
    match.deals_won_a, match.deals_won_b = sheet.deals_won_a, sheet.deals_won_b
    match.winner = sheet.winner.value if sheet.winner else ""
    match.status = rules.sheet_status(sheet, knockout=match.stage == Stage.KNOCKOUT)
    match.tiebreak = settled.phase.value if settled else ""
    match.version += 1
    match.save(
        update_fields=[
            "total_a",
            "total_b",
            "deals_won_a",
            "deals_won_b",
            "winner",
            "status",
            "tiebreak",
            "toss_winner",
            "first_dealer",
            "version",
            "updated_at",
        ]
    )
    match.sheet = sheet
    return sheet


# Matches
# ----------------------------------------------------------------------------------


@transaction.atomic
def match_create(
    *,
    tournament: Tournament,
    user,
    team_a: int,
    team_b: int,
    round: int,
    table: int,
    stage: str = Stage.LEAGUE,
    deals_scheduled: int | None = None,
) -> Match:
    """A match set up by hand by an organizer (the league draw makes them too)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    teams = {
        t.pk: t
        for t in Team.objects.filter(tournament=tournament, pk__in=[team_a, team_b])
    }
    errors = [
        RuleError(
            "unknown_team",
            f"there is no team {pk} in {tournament.name}.",
            field=field,
        )
        for field, pk in (("team_a", team_a), ("team_b", team_b))
        if pk not in teams
    ]
    if errors:
        raise errors[0]
    if team_a == team_b:
        raise RuleError(
            "same_team", "a team cannot play itself; choose two teams.", field="team_b"
        )
    a, b = teams[team_a], teams[team_b]
    if stage == Stage.LEAGUE:
        if a.section_id == b.section_id:
            raise RuleError(
                "same_section",
                f"{a.name} and {b.name} are both in section {a.section}; in the league "
                "no team meets a team of its own section (rules.md §5).",
                field="team_b",
            )
        if not 1 <= round <= tournament.league_rounds:
            raise RuleError(
                "round_out_of_range",
                f"the league of {tournament.name} has rounds 1 to "
                f"{tournament.league_rounds}.",
                field="round",
            )
    if deals_scheduled is None:
        deals_scheduled = tournament.league_deals
    same_round = Match.objects.filter(tournament=tournament, stage=stage, round=round)
    if same_round.filter(table=table).exists():
        raise ConflictError(
            "table_taken",
            f"table {table} of {stage} round {round} already has a match.",
            field="table",
        )
    busy = same_round.filter(Q(team_a__in=[a, b]) | Q(team_b__in=[a, b])).exists()
    if busy and stage == Stage.LEAGUE:  # the final's games share a knockout round
        raise ConflictError(
            "team_busy",
            f"{a.name} or {b.name} already plays in {stage} round {round}; a team "
            "plays one match per round.",
        )
    match = Match(
        tournament=tournament,
        stage=stage,
        round=round,
        table=table,
        team_a=a,
        team_b=b,
        deals_scheduled=deals_scheduled,
    )
    match.full_clean()
    match.save()
    _change(
        match,
        SheetAction.MATCH_CREATE,
        user=user,
        after={
            "team_a": a.name,
            "team_b": b.name,
            "stage": stage,
            "round": round,
            "table": table,
            "deals_scheduled": deals_scheduled,
        },
    )
    return match


@transaction.atomic
def match_delete(*, match: Match, user) -> None:
    """Only a match whose sheet was never written to goes; its history would be lost."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    if match.changes.exclude(action=SheetAction.MATCH_CREATE).exists():
        raise ConflictError(
            "match_has_history",
            f"{match} has a score sheet history; a match that was scored cannot be "
            "deleted.",
        )
    match.changes.all().delete()
    match.delete()


# Deals
# ----------------------------------------------------------------------------------


def _deal_check(match: Match, values: dict[str, Any]) -> rules.Deal:
    allowed = match.deals_scheduled
    if match.stage == Stage.KNOCKOUT and allowed is not None:
        # The tie-break may add deals; which of them the state opens is checked on
        # the whole sheet (tiebreak.problems, in _rescore).
        allowed += tiebreak.TIEBREAK_DEALS
    return rules.deal_from_values(**values, deals_allowed=allowed)


@transaction.atomic
def score_sheet_deal_record(
    *, match_id: int, user, version: int | None, **values: Any
) -> tuple[Deal, Match]:
    """Add deal `number` to the sheet (rules.md §2). 409 if the number is taken by a
    different deal; the same deal already there is a retry, answered by Replayed."""

    rows: list[tuple[list[Deal], list[Penalty]]] = []

    def done(match: Match) -> bool:
        rows.append(_rows(match))  # read once, under the lock, and used below
        try:
            deal = _deal_check(match, values)
        except (RuleError, RuleErrors):
            return False  # refused below, in the usual order (locked, stale, rules)
        return any(
            all(getattr(d, f) == getattr(deal, f) for f in DEAL_FIELDS)
            for d in rows[0][0]
        )

    match = _sheet_open(
        match_id=match_id, version=version, action="add a deal", done=done
    )
    checked = _deal_check(match, values)
    deals, penalties = rows[0]
    if any(d.number == checked.number for d in deals):
        raise ConflictError(
            "deal_number_taken",
            f"deal {checked.number} is already on the sheet; replace it instead, or "
            "give the number of the deal you mean.",
            field="number",
            number=checked.number,
        )
    if match.deals_scheduled is None and match.status == MatchStatus.COMPLETED:
        raise ConflictError(
            "match_over",
            "the match is over: a team has no tables left (rules.md §8).",
        )
    deal = Deal(match=match, entered_by=user if user.is_authenticated else None)
    for field in DEAL_FIELDS:
        setattr(deal, field, getattr(checked, field))
    deals.append(deal)
    deals.sort(key=lambda d: d.number)
    _rescore(match, deals, penalties)
    _change(match, SheetAction.DEAL_ADD, user=user, after=deal.record())
    return deal, match


def _deal_locked(match: Match, number: int) -> tuple[Deal, list[Deal], list[Penalty]]:
    deals, penalties = _rows(match)
    for deal in deals:
        if deal.number == number:
            return deal, deals, penalties
    raise ConflictError(
        "no_such_deal",
        f"there is no deal {number} on this sheet.",
        field="number",
        number=number,
    )


@transaction.atomic
def score_sheet_deal_replace(
    *, match_id: int, number: int, user, version: int | None, **values: Any
) -> tuple[Deal, Match]:
    """Replace what deal `number` records; its penalties stay with it."""
    match = _sheet_open(match_id=match_id, version=version, action="change a deal")
    checked = _deal_check(match, {"number": number, **values})
    deal, deals, penalties = _deal_locked(match, number)
    before = deal.record()
    for field in DEAL_FIELDS:
        setattr(deal, field, getattr(checked, field))
    deal.entered_by = user if user.is_authenticated else None
    deal.save()
    _rescore(match, deals, penalties)
    _change(
        match,
        SheetAction.DEAL_REPLACE,
        user=user,
        before=before,
        after=deal.record(),
    )
    return deal, match


@transaction.atomic
def score_sheet_deal_delete(
    *, match_id: int, number: int, user, version: int | None
) -> Match:
    match = _sheet_open(match_id=match_id, version=version, action="delete a deal")
    deal, deals, penalties = _deal_locked(match, number)
    if any(p.deal_id == deal.pk for p in penalties):
        raise ConflictError(
            "deal_has_penalties",
            f"deal {number} has penalties; delete them first, so that no penalty is "
            "lost without a trace.",
            field="number",
        )
    before = deal.record()
    deals.remove(deal)
    deal.delete()
    _rescore(match, deals, penalties)
    _change(match, SheetAction.DEAL_DELETE, user=user, before=before)
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
) -> tuple[Penalty, Match]:
    """A penalty in deal `deal` (rules.md §3); its points go to the other team."""
    match = _sheet_open(match_id=match_id, version=version, action="add a penalty")
    the_kind = PenaltyKind(kind)
    if the_kind is PenaltyKind.CONDUCT and not by_organizer:
        raise ForbiddenError(
            "conduct_by_organizer",
            "a conduct penalty's points are set by the organizer (rules.md §3); ask "
            "an organizer to enter it.",
            field="kind",
        )
    rules.check_penalty_points(the_kind, points)
    deals, penalties = _rows(match)
    target = next((d for d in deals if d.number == deal), None)
    if target is None:
        raise RuleError(
            "no_such_deal",
            f"there is no deal {deal} on this sheet yet; enter the deal first, then "
            "its penalty.",
            field="deal",
            number=deal,
        )
    if the_kind in AWARDING_KINDS and target.awarded_by:
        raise ConflictError(
            "deal_already_awarded",
            f"deal {deal} is already awarded to team {target.award_to} by a "
            f"{target.awarded_by} penalty; a deal is given away once.",
            field="deal",
        )
    penalty = Penalty(
        deal=target,
        offender=Side(offender).value,
        kind=the_kind.value,
        points=points if the_kind is PenaltyKind.CONDUCT else 0,
        note=note,
        entered_by=user if user.is_authenticated else None,
    )
    penalties.append(penalty)
    _rescore(match, deals, penalties)
    _change(
        match,
        SheetAction.PENALTY_ADD,
        user=user,
        after=penalty.record(deal),
    )
    return penalty, match


@transaction.atomic
def score_sheet_penalty_delete(
    *, match_id: int, penalty_id: int, user, version: int | None
) -> Match:
    match = _sheet_open(match_id=match_id, version=version, action="delete a penalty")
    deals, penalties = _rows(match)
    penalty = next((p for p in penalties if p.pk == penalty_id), None)
    if penalty is None:
        raise ConflictError(
            "no_such_penalty",
            f"there is no penalty {penalty_id} on this sheet.",
            field="penalty",
        )
    number = next(d.number for d in deals if d.pk == penalty.deal_id)
    before = penalty.record(number)
    penalties.remove(penalty)
    penalty.delete()
    _rescore(match, deals, penalties)
    _change(match, SheetAction.PENALTY_DELETE, user=user, before=before)
    return match


# Confirmation
# ----------------------------------------------------------------------------------


def _lock(match: Match, user) -> None:
    match.status = MatchStatus.CONFIRMED
    match.confirmed_at = timezone.now()
    match.confirmed_by = user
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
    _change(
        match,
        SheetAction.LOCK,
        user=user,
        before={"status": MatchStatus.COMPLETED.value},
        after={"status": MatchStatus.CONFIRMED.value},
    )
    sheet_locked.send(sender=Match, match=match, user=user)


@transaction.atomic
def score_sheet_confirm(
    *, match_id: int, user, version: int, roles: frozenset[Role], sides: frozenset[Side]
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
            f"only the captains of {match.team_a} and {match.team_b}, or an organizer, "
            "confirm this sheet.",
        )
    match = _sheet_open(match_id=match_id, version=version, action="confirm")
    if match.status != MatchStatus.COMPLETED:
        sheet, settled = sheet_settle(match, *_rows(match))
        if settled is not None and settled.phase is tiebreak.Phase.TOSS:
            raise ConflictError(
                "sheet_incomplete",
                f"The sheet cannot be confirmed yet: {settled.reason}.",
            )
        if sheet.missing:
            shown = ", ".join(str(n) for n in sheet.missing[:6])
            more = " …" if len(sheet.missing) > 6 else ""
            why = (
                f"deal {shown} is not on the sheet yet"
                if len(sheet.missing) == 1
                else f"deals {shown}{more} are not on the sheet yet"
            )
        elif match.deals_scheduled is None:
            why = "both teams still have tables"
        else:
            why = "the totals are equal: tie-break deals follow (rules.md §6)"
        raise ConflictError(
            "sheet_incomplete", f"The sheet cannot be confirmed yet: {why}."
        )
    if organizer:
        _lock(match, user)
        return match
    for side in sorted(sides):
        before = {"side": side.value, "confirmed_version": _confirmed(match, side)}
        if side is Side.A:
            match.confirmed_a_version = version
        else:
            match.confirmed_b_version = version
        _change(
            match,
            SheetAction.CONFIRM,
            user=user,
            before=before,
            after={"side": side.value, "confirmed_version": version},
        )
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
) -> Match:
    """An organizer unlocks a confirmed sheet; the reason goes into the history.

    A knockout sheet whose winner already plays on is refused unless `reset_next`
    (the bracket's receiver of sheet_reopening says what that resets).
    """
    reason = (reason or "").strip()
    if not reason:
        raise RuleError(
            "reason_missing",
            "say why the sheet is reopened; the history keeps the reason "
            "(rules.md §7).",
            field="reason",
        )
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("tournament", "team_a", "team_b")
        .get(pk=match_id)
    )
    _replay_check(match)
    _version_check(match, version)
    if match.status == MatchStatus.VOID:
        raise ConflictError(
            "sheet_void",
            f"the sheet of {match} is void; a void sheet is not reopened.",
        )
    if match.status != MatchStatus.CONFIRMED:
        raise ConflictError(
            "sheet_not_confirmed",
            f"the sheet of {match} is not confirmed; there is nothing to reopen.",
        )
    backup_before(f"reopening match {match.pk} of {match.tournament.slug}")
    sheet_reopening.send(
        sender=Match, match=match, user=user, reason=reason, reset_next=reset_next
    )
    sheet, _ = sheet_settle(match, *_rows(match))
    _unlock(match, rules.sheet_status(sheet, knockout=match.stage == Stage.KNOCKOUT))
    _change(
        match,
        SheetAction.REOPEN,
        user=user,
        before={"status": MatchStatus.CONFIRMED.value},
        after={"status": match.status},
        reason=reason,
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
    _change(
        match,
        SheetAction.VOID,
        user=user,
        before=before,
        after={"status": MatchStatus.VOID.value},
        reason=reason,
    )
    return match


# The knockout toss
# ----------------------------------------------------------------------------------


@transaction.atomic
def score_sheet_toss_record(
    *, match_id: int, user, version: int | None, winner: str, first_dealer: str
) -> Match:
    """The toss after equal totals at the end of the extra deals (rules.md §6): who
    won it and whom the winner chose to deal the sudden-death deal."""
    match = _sheet_open(match_id=match_id, version=version, action="record a toss")
    if match.stage != Stage.KNOCKOUT or match.deals_scheduled is None:
        raise ConflictError(
            "toss_not_knockout",
            "only a knockout match of stipulated deals has a toss (rules.md §6).",
        )
    deals, penalties = _rows(match)
    _, settled = sheet_settle(match, deals, penalties)
    if settled is None:
        raise AssertionError("a knockout sheet of stipulated deals has a tie-break")
    why = tiebreak.toss_due(settled)
    if why is not None:
        raise ConflictError("toss_not_due", f"Nothing was saved: {why}.")
    match.toss_winner, match.first_dealer = Side(winner).value, Side(first_dealer).value
    _rescore(match, deals, penalties)
    _change(
        match,
        SheetAction.TOSS,
        user=user,
        after={"winner": match.toss_winner, "first_dealer": match.first_dealer},
    )
    return match


@transaction.atomic
def score_sheet_toss_delete(*, match_id: int, user, version: int | None) -> Match:
    """Take back a toss entered by mistake, while its sudden-death deal is not in."""
    match = _sheet_open(match_id=match_id, version=version, action="delete the toss")
    if not match.toss_winner:
        raise ConflictError("no_toss", "no toss is recorded on this sheet.")
    deals, penalties = _rows(match)
    sudden = tiebreak.deciding_deal(match.deals_scheduled or 0)
    if any(d.number == sudden for d in deals):
        raise ConflictError(
            "toss_played",
            f"deal {sudden}, played after the toss, is on the sheet; delete it first.",
        )
    before = {"winner": match.toss_winner, "first_dealer": match.first_dealer}
    match.toss_winner = match.first_dealer = ""
    _rescore(match, deals, penalties)
    _change(match, SheetAction.TOSS_DELETE, user=user, before=before)
    return match


# The league draw
# ----------------------------------------------------------------------------------
# The draw is the tournament app's rule (tournament/domain/draw.py), but what it
# writes are matches, the score sheets of this app; apps depend one way (scoring →
# tournament), so the service that stores a draw lives here.


@transaction.atomic
def league_draw_generate(
    *, tournament: Tournament, user, seed: int | None = None
) -> LeagueDraw:
    """Draw the whole league (rules.md §5) and store its rounds, matches and byes.

    A redraw replaces the matches of the earlier draw, and matches set up by hand,
    while no league result is entered; after the first one the draw is locked. The
    seed is chosen at random when none is given; with the same teams, sections and
    seed the draw is the same. Rounds start as drafts for the organizer to release.
    Matches are inserted in bulk: `check_draw` has validated the whole draw first,
    and the database's constraints hold each row.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    locked = draw_locked_reason(tournament=tournament)
    if locked is not None:
        raise ConflictError("draw_locked", f"Cannot draw again: {locked}.")
    if seed is None:
        seed = secrets.randbelow(SEED_LIMIT)
    backup_before(f"the draw of {tournament.slug}")
    teams = draw_teams(tournament=tournament)
    draw = draw_league(teams, tournament.league_rounds, seed)
    problems = check_draw(teams, tournament.league_rounds, draw.rounds)
    if problems:
        raise AssertionError(f"the draw broke its own rules: {problems}")
    spread = draw_spread(teams, draw.rounds)

    league = Match.objects.filter(tournament=tournament, stage=Stage.LEAGUE)
    SheetChange.objects.filter(match__in=league).delete()
    league.delete()
    Bye.objects.filter(tournament=tournament).delete()
    LeagueRound.objects.filter(tournament=tournament).delete()
    earlier = LeagueDraw.objects.filter(tournament=tournament)
    number = (earlier.aggregate(m=Max("number"))["m"] or 0) + 1
    earlier.update(current=False)
    record = LeagueDraw.objects.create(
        tournament=tournament,
        number=number,
        seed=seed,
        algorithm=draw.algorithm,
        rounds=tournament.league_rounds,
        teams=len(teams),
        restarts=draw.restarts,
        most_from_one_section=spread.most_from_one_section,
        mean_sections_met=spread.mean_sections_met,
        created_by=user if user is not None and user.is_authenticated else None,
    )
    LeagueRound.objects.bulk_create(
        LeagueRound(tournament=tournament, number=r.number) for r in draw.rounds
    )
    Bye.objects.bulk_create(
        Bye(tournament=tournament, round=r.number, team_id=r.bye)
        for r in draw.rounds
        if r.bye is not None
    )
    matches = Match.objects.bulk_create(
        Match(
            tournament=tournament,
            stage=Stage.LEAGUE,
            round=r.number,
            table=p.table,
            team_a_id=p.team_a,
            team_b_id=p.team_b,
            deals_scheduled=tournament.league_deals,
        )
        for r in draw.rounds
        for p in r.pairings
    )
    if any(m.pk is None for m in matches):  # SQLite before 3.35 returns no ids
        matches = list(league.order_by("round", "table"))
    actor = user if user is not None and user.is_authenticated else None
    SheetChange.objects.bulk_create(
        SheetChange(
            match=m,
            version=m.version,
            action=SheetAction.MATCH_CREATE,
            actor=actor,
            actor_name=_actor_name(user),
            after={
                "team_a": m.team_a_id,
                "team_b": m.team_b_id,
                "stage": Stage.LEAGUE.value,
                "round": m.round,
                "table": m.table,
                "deals_scheduled": m.deals_scheduled,
                "draw": number,
                "seed": seed,
            },
        )
        for m in matches
    )
    tournament.status = TournamentStatus.LEAGUE
    tournament.save(update_fields=["status", "updated_at"])
    return record


@transaction.atomic
def league_round_release(*, tournament: Tournament, user, number: int) -> LeagueRound:
    """Show a drafted round's pairings to everyone (rules.md §5: pairings are
    published round by round, after the organizer has checked them)."""
    found = (
        LeagueRound.objects.select_for_update()
        .filter(tournament=tournament, number=number)
        .first()
    )
    if found is None:
        raise ConflictError(
            "no_such_round",
            f"{tournament.name} has no drawn league round {number}; draw the league "
            "first.",
            field="round",
        )
    if found.released_at is None:
        found.released_at = timezone.now()
        found.released_by = user if user.is_authenticated else None
        found.save(update_fields=["released_at", "released_by"])
    return found


@transaction.atomic
def league_rounds_release_all(*, tournament: Tournament, user) -> int:
    """Release every drafted round at once; how many were drafts."""
    drafts = LeagueRound.objects.filter(tournament=tournament, released_at__isnull=True)
    if not LeagueRound.objects.filter(tournament=tournament).exists():
        raise ConflictError(
            "no_such_round",
            f"{tournament.name} has no drawn league rounds; draw the league first.",
        )
    return drafts.update(
        released_at=timezone.now(), released_by=user if user.is_authenticated else None
    )


# Lots in the standings
# ----------------------------------------------------------------------------------


def league_final_check(progress, *, doing: str) -> None:
    """409 `league_not_final`, saying what is missing, unless every league sheet is
    confirmed and every round released."""
    if progress.final:
        return
    waiting = []
    if progress.matches == 0:
        waiting.append("the league has no matches yet")
    elif progress.confirmed < progress.matches:
        waiting.append(
            f"{progress.matches - progress.confirmed} of {progress.matches} "
            "league sheets are not confirmed yet"
        )
    if progress.draft_rounds:
        waiting.append(f"{progress.draft_rounds} drawn rounds are not released")
    raise ConflictError(
        "league_not_final",
        f"{doing} on the final standings, and "
        + " and ".join(waiting)
        + " (rules.md §5).",
    )


@transaction.atomic
def standings_lots_draw(
    *, tournament: Tournament, user, seed: int | None = None
) -> StandingsLot:
    """Draw the lots that order equal teams where a place must be decided: across
    the qualifying line and among the qualifiers, who are seeded one by one
    (rules.md §5). Once, when the league is final (every league sheet confirmed,
    every round released). The seed is recorded, and chosen at random when none is
    given; it orders any equal teams by a hash of seed and team, so a sheet reopened
    afterwards is ranked by the same lot rather than by a new one."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    drawn = StandingsLot.objects.filter(tournament=tournament).first()
    if drawn is not None:
        raise ConflictError(
            "lots_drawn",
            f"The lots of {tournament.name} were drawn at "
            f"{drawn.drawn_at:%Y-%m-%d %H:%M} with seed {drawn.seed}; they are drawn "
            "once, and that seed orders any equal teams from then on.",
            seed=drawn.seed,
        )
    standings = standings_get(tournament=tournament)
    league_final_check(standings.progress, doing="Lots are drawn")
    if seed is None:
        seed = secrets.randbelow(SEED_LIMIT)
    ordered = ranking.draw_lots(
        [row.standing for row in standings.rows],
        seed=seed,
        places=tournament.qualifiers,
    )
    decided = [
        [s.team for s in ordered if s.team in group]
        for group in map(set, standings.to_decide)
    ]
    return StandingsLot.objects.create(
        tournament=tournament,
        seed=seed,
        algorithm=ranking.LOT_ALGORITHM,
        places=tournament.qualifiers,
        decided=decided,
        drawn_by=user if user is not None and user.is_authenticated else None,
    )


# The tournament workbook, built in the background (docs/exports.md)
# ----------------------------------------------------------------------------------

EXPORTS_KEPT = 5  # finished workbooks kept per tournament; older ones are deleted
EXPORT_STALE = timedelta(minutes=10)  # a job not heard from this long is dead
LIVE_EXPORT = (ExportStatus.QUEUED, ExportStatus.RUNNING)


def export_live(tournament: Tournament) -> QuerySet[ExportJob]:
    """Jobs of the tournament still queued or running and heard from lately."""
    return ExportJob.objects.filter(
        tournament=tournament,
        status__in=LIVE_EXPORT,
        updated_at__gte=timezone.now() - EXPORT_STALE,
    )


@transaction.atomic
def export_request(*, tournament: Tournament, user) -> tuple[ExportJob, bool]:
    """Queue a build of the tournament's workbook; answers (job, created).

    A job of the same tournament still queued or running is answered instead of a
    second one, so that repeated clicks do not queue the same work twice. The task is
    queued when the job's row is committed (with eager Celery, it runs then, in the
    request).
    """
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    live = export_live(tournament).first()
    if live is not None:
        return live, False
    job = ExportJob.objects.create(
        tournament=tournament,
        requested_by=user if user is not None and user.is_authenticated else None,
        total=Match.objects.filter(tournament=tournament).count(),
    )
    from .tasks import export_build  # tasks call services: import when queuing

    transaction.on_commit(lambda: export_build.delay(job.pk))
    return job, True


def export_run(*, job_id: int) -> ExportJob | None:
    """Build the workbook of job `job_id` and keep it; None when the job is already
    done or failed (a task delivered twice builds once).

    Progress is written as the score sheets go, each in its own short statement (no
    transaction is held while the file is built). The file and the status `done` are
    written together, in one transaction, so a worker killed midway leaves a job that
    offers no file; the broker gives the task to another worker (acks late), which
    starts it again.
    """
    claimed = ExportJob.objects.filter(pk=job_id, status__in=LIVE_EXPORT).update(
        status=ExportStatus.RUNNING,
        progress=0,
        attempts=F("attempts") + 1,
        updated_at=timezone.now(),
    )
    if not claimed:
        return None
    job = ExportJob.objects.select_related("tournament").get(pk=job_id)
    step = {"last": 0}

    def progress(done: int, total: int) -> None:
        if done - step["last"] >= max(1, total // 50) or done == total:
            step["last"] = done
            ExportJob.objects.filter(pk=job_id).update(
                progress=done, total=total, updated_at=timezone.now()
            )

    try:
        content = tournament_workbook(tournament=job.tournament, progress=progress)
    except Exception as error:
        ExportJob.objects.filter(pk=job_id).update(
            status=ExportStatus.FAILED,
            error=f"{type(error).__name__}: {error}"[:2000],
            finished_at=timezone.now(),
        )
        logger.exception("export %s of %s failed", job_id, job.tournament.slug)
        return ExportJob.objects.get(pk=job_id)
    with transaction.atomic():
        job = ExportJob.objects.select_for_update().get(pk=job_id)
        job.content = content
        job.size = len(content)
        job.status = ExportStatus.DONE
        job.progress = job.total = max(job.total, step["last"])
        job.finished_at = timezone.now()
        job.save()
        kept = ExportJob.objects.filter(
            tournament_id=job.tournament_id, status=ExportStatus.DONE
        ).values_list("pk", flat=True)[:EXPORTS_KEPT]
        ExportJob.objects.filter(
            tournament_id=job.tournament_id, status=ExportStatus.DONE
        ).exclude(pk__in=list(kept)).delete()
    return job


# Filled score sheets read back from Excel (docs/exports.md)
# ----------------------------------------------------------------------------------


class SheetImportRefused(Exception):
    """An import that changed nothing: every problem found, with worksheet and row."""

    def __init__(self, problems: list[exports.FileProblem], message: str = "") -> None:
        self.problems = problems
        self.message = message or (
            f"Nothing was imported: {len(problems)} problem(s) in the file. Correct "
            "them and import the whole file again."
        )
        super().__init__(self.message)


@dataclass
class SheetImported:
    """What an import did to one sheet."""

    match: Match
    worksheet: str
    added: int = 0
    replaced: int = 0
    deleted: int = 0
    penalties_added: int = 0
    penalties_deleted: int = 0
    toss: bool = False
    changes: list[str] = dataclasses.field(default_factory=list)

    @property
    def unchanged(self) -> bool:
        return not (
            self.added
            or self.replaced
            or self.deleted
            or self.penalties_added
            or self.penalties_deleted
            or self.toss
        )


def _problem(
    sheet: exports.FileSheet,
    row: int | None,
    error: Exception,
    name: str = "sheet",
) -> list[exports.FileProblem]:
    if isinstance(error, RuleErrors):
        return [_problem(sheet, row, e, name)[0] for e in error.errors]
    message = getattr(error, "message", None) or str(error)
    where = getattr(error, "field", None) or name
    return [exports.FileProblem(sheet.worksheet, row, where, message)]


def _file_deals(
    sheet: exports.FileSheet, match: Match
) -> tuple[dict[int, tuple[int, rules.Deal]], list[exports.FileProblem]]:
    """The file's deals checked one row at a time: {number: (row, deal)}."""
    found: dict[int, tuple[int, rules.Deal]] = {}
    problems: list[exports.FileProblem] = []
    for line in sheet.deals:
        values = {
            "number": line.number,
            "declarer": line.declarer,
            "value": line.value,
            "trump": line.trump,
            "level": line.level,
            "taken": line.taken,
        }
        try:
            deal = _deal_check(match, values)
        except (RuleError, RuleErrors) as error:
            problems += _problem(sheet, line.row, error)
            continue
        if deal.number in found:
            problems.append(
                exports.FileProblem(
                    sheet.worksheet,
                    line.row,
                    "number",
                    f"deal {deal.number} is also on row {found[deal.number][0]}: a "
                    "deal is entered once.",
                )
            )
            continue
        found[deal.number] = (line.row, deal)
    return found, problems


PenaltyKey = tuple[int, str, str, int | None, str]


def _file_penalties(
    sheet: exports.FileSheet, numbers: set[int]
) -> tuple[list[tuple[int, PenaltyKey]], list[exports.FileProblem]]:
    found: list[tuple[int, PenaltyKey]] = []
    problems: list[exports.FileProblem] = []
    awarded: dict[int, int] = {}
    for line in sheet.penalties:
        here: list[exports.FileProblem] = []

        def refuse(name: str, message: str, here=here, line=line) -> None:
            here.append(exports.FileProblem(sheet.worksheet, line.row, name, message))

        deal = line.deal
        if isinstance(deal, bool) or not isinstance(deal, int):
            refuse("deal", "the penalty's deal must be a deal number.")
        elif deal not in numbers:
            refuse("deal", f"there is no deal {deal} on this sheet.")
        if line.offender not in ("A", "B"):
            refuse("offender", "the offender must be A or B (team A or team B).")
        try:
            kind = PenaltyKind(str(line.kind))
        except ValueError:
            kinds = ", ".join(k.value for k in PenaltyKind)
            refuse("kind", f"'{line.kind}' is not a penalty; the kinds are {kinds}.")
            kind = None
        points = line.points
        if kind is not None:
            if kind is not PenaltyKind.CONDUCT and points in (None, 0):
                points = None
            try:
                if points is not None and (
                    isinstance(points, bool) or not isinstance(points, int)
                ):
                    raise RuleError(
                        "not_a_number", "points must be a whole number.", field="points"
                    )
                rules.check_penalty_points(kind, points)  # type: ignore[arg-type]
            except RuleError as error:
                here += _problem(sheet, line.row, error, "points")
            if kind in AWARDING_KINDS and isinstance(deal, int):
                if deal in awarded:
                    refuse(
                        "kind",
                        f"deal {deal} is already given away by the penalty on row "
                        f"{awarded[deal]}; a deal is given away once.",
                    )
                awarded.setdefault(deal, line.row)
        if here:
            problems += here
            continue
        key = (deal, str(line.offender), kind.value, points, line.note)  # type: ignore[union-attr]
        found.append((line.row, key))  # type: ignore[arg-type]
    return found, problems


def _sheet_import(
    sheet: exports.FileSheet, match: Match, *, user, filename: str
) -> tuple[SheetImported, list[exports.FileProblem]]:
    """Make one sheet what its file says, through the services of the API."""
    done = SheetImported(match=match, worksheet=sheet.worksheet)
    wanted, problems = _file_deals(sheet, match)
    wanted_penalties, more = _file_penalties(sheet, set(wanted))
    problems += more
    toss = (sheet.toss_winner, sheet.first_dealer)
    if any(toss) and not all(v in ("A", "B") for v in toss):
        problems.append(
            exports.FileProblem(
                sheet.worksheet,
                sheet.toss_row,
                "toss",
                "the toss needs both who won it and who deals first, each A or B.",
            )
        )
    if problems:
        return done, problems

    deals, penalties = _rows(match)
    have = {d.number: d for d in deals}
    number_of = {d.pk: d.number for d in deals}
    have_penalties: list[tuple[Penalty, PenaltyKey]] = [
        (
            p,
            (
                number_of[p.deal_id],
                p.offender,
                p.kind,
                p.points if p.kind == PenaltyKind.CONDUCT else None,
                exports.note_text(p.note),
            ),
        )
        for p in penalties
    ]
    unmatched = [key for _, key in wanted_penalties]
    drop_penalties = []
    for penalty, key in have_penalties:
        if key in unmatched:
            unmatched.remove(key)
        else:
            drop_penalties.append(penalty)
    add_penalties = []
    pending = [key for _, key in have_penalties]
    for row, key in wanted_penalties:
        if key in pending:
            pending.remove(key)
        else:
            add_penalties.append((row, key))
    drop = sorted((n for n in have if n not in wanted), reverse=True)
    change = [
        n
        for n in sorted(wanted)
        if n in have
        and tuple(getattr(have[n], f) for f in DEAL_FIELDS)
        != tuple(getattr(wanted[n][1], f) for f in DEAL_FIELDS)
    ]
    add = [n for n in sorted(wanted) if n not in have]
    have_toss = (match.toss_winner, match.first_dealer)
    toss_changes = all(toss) and toss != have_toss
    toss_goes = have_toss[0] and (not any(toss) or toss_changes)
    if not (drop_penalties or add_penalties or drop or change or add or toss_changes):
        return done, []  # a sheet as the file says, locked or not, is left alone
    if match.status == MatchStatus.VOID or match.locked:
        what = "void" if match.status == MatchStatus.VOID else "confirmed and locked"
        return done, [
            exports.FileProblem(
                sheet.worksheet,
                None,
                "match",
                f"the file changes the sheet of {match}, which is {what}; an "
                "organizer reopens it first (rules.md §7), then imports the file.",
            )
        ]
    if sheet.version is not None and sheet.version != match.version:
        return done, [
            exports.FileProblem(
                sheet.worksheet,
                None,
                "version",
                f"the sheet changed since this file was made (version {sheet.version} "
                f"in the file, {match.version} now). Nothing was imported: download "
                "the sheet again, copy your entries into it and import that.",
            )
        ]

    where = f"{filename}, worksheet {sheet.worksheet}"

    def step(row: int | None, call, *args, **kwargs) -> None:
        token = _ORIGIN.set(
            ("file", f"Imported from {where}" + (f", row {row}" if row else ""))
        )
        try:
            call(*args, match_id=match.pk, user=user, version=None, **kwargs)
        finally:
            _ORIGIN.reset(token)

    row_of = {n: row for n, (row, _) in wanted.items()}
    try:
        for penalty in drop_penalties:
            step(None, score_sheet_penalty_delete, penalty_id=penalty.pk)
            done.penalties_deleted += 1
        if toss_goes:
            step(sheet.toss_row, score_sheet_toss_delete)
        for n in drop:
            step(None, score_sheet_deal_delete, number=n)
            done.deleted += 1
        for n in change:
            values = {f: getattr(wanted[n][1], f) for f in DEAL_FIELDS if f != "number"}
            step(row_of[n], score_sheet_deal_replace, number=n, **values)
            done.replaced += 1
        sudden = (
            tiebreak.deciding_deal(match.deals_scheduled)
            if match.deals_scheduled is not None
            else None
        )
        for n in add:
            if toss_changes and not done.toss and sudden is not None and n >= sudden:
                step(
                    sheet.toss_row,
                    score_sheet_toss_record,
                    winner=toss[0],
                    first_dealer=toss[1],
                )
                done.toss = True
            values = {f: getattr(wanted[n][1], f) for f in DEAL_FIELDS}
            step(row_of[n], score_sheet_deal_record, **values)
            done.added += 1
        if toss_changes and not done.toss:
            step(
                sheet.toss_row,
                score_sheet_toss_record,
                winner=toss[0],
                first_dealer=toss[1],
            )
            done.toss = True
        for row, (deal, offender, kind, points, note) in add_penalties:
            step(
                row,
                score_sheet_penalty_record,
                deal=deal,
                offender=offender,
                kind=kind,
                points=points,
                note=note,
                by_organizer=True,
            )
            done.penalties_added += 1
    except (RuleError, RuleErrors, ConflictError, ForbiddenError) as error:
        return done, _problem(sheet, _failed_row(error, row_of), error)
    return done, []


def _failed_row(error: Exception, row_of: dict[int, int]) -> int | None:
    number = getattr(error, "params", {}).get("number")
    return row_of.get(number) if isinstance(number, int) else None


@transaction.atomic
def score_sheets_import(
    *, tournament: Tournament, user, sheets: list[exports.FileSheet], filename: str
) -> list[SheetImported]:
    """Record filled score sheets read from a file, all or nothing (organizers).

    Each sheet becomes what its file says: deals added, replaced or deleted and
    penalties added or deleted through the same services as the API, so every rule
    and every lock applies, and each change enters the history with the file and row
    it came from (`source` "file"). A sheet whose version moved on since the file was
    made is refused rather than overwritten. Any problem anywhere: SheetImportRefused
    listing them all, and nothing is saved.
    """
    matches = {
        m.pk: m
        for m in Match.objects.select_for_update(of=("self",))
        .select_related("tournament", "team_a", "team_b")
        .filter(tournament=tournament, pk__in=[s.match for s in sheets])
        .order_by("pk")
    }
    results: list[SheetImported] = []
    problems: list[exports.FileProblem] = []
    for sheet in sheets:
        match = matches.get(sheet.match)
        if match is None:
            problems.append(
                exports.FileProblem(
                    sheet.worksheet,
                    None,
                    "match",
                    f"match {sheet.match} is not a match of {tournament.name}.",
                )
            )
            continue
        with transaction.atomic():
            done, found = _sheet_import(sheet, match, user=user, filename=filename)
        problems += found
        results.append(done)
    if problems:
        raise SheetImportRefused(problems)
    return results


def score_sheets_import_file(
    *, tournament: Tournament, user, content: bytes, filename: str
) -> list[SheetImported]:
    """Read a filled .xlsx of score sheets (exports.score_sheets_read) and import it
    (score_sheets_import); SheetImportRefused for a file of the wrong shape too."""
    try:
        sheets = exports.score_sheets_read(content)
    except exports.FileRefused as refused:
        raise SheetImportRefused(refused.problems, refused.message) from None
    return score_sheets_import(
        tournament=tournament, user=user, sheets=sheets, filename=filename
    )
