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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from tournament.backups import backup_before
from tournament.domain.errors import (
    ConflictError,
    ForbiddenError,
    RuleError,
    RuleErrors,
)
from tournament.domain.types import Role
from tournament.models import Team, Tournament

from ..domain import rules, tiebreak
from ..domain.rules import AWARDING_KINDS, MatchStatus, PenaltyKind, Side, Stage
from ..models import (
    Deal,
    Match,
    Penalty,
    SheetAction,
    SheetChange,
)
from ..signals import sheet_locked, sheet_reopening
from .selectors import (
    sheet_settle,
)

logger = logging.getLogger(__name__)
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
    match = match_locked(match_id)
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


# The locked read of every sheet write, and the match's update after it, in plain
# SQL: the ORM's compiler costs more to build these than the database to run them
# (docs/performance.md). The row lock is PostgreSQL's FOR UPDATE; the embedded
# SQLite has one writer at a time anyway.
# What a sheet write shows of the match's tournament and teams; the rest of them
# loads if some step asks for it. In the model's order, as Model.from_db wants it.
_TOURNAMENT_FIELDS = tuple(
    f.attname
    for f in Tournament._meta.concrete_fields
    if f.attname in ("id", "name", "slug", "ruleset")
)
_MATCH_SQL = f"""
SELECT m.*, a.name AS team_a_name, b.name AS team_b_name,
  {", ".join(f"t.{f} AS tournament_{f}" for f in _TOURNAMENT_FIELDS)}
FROM {Match._meta.db_table} m
JOIN {Team._meta.db_table} a ON a.id = m.team_a_id
JOIN {Team._meta.db_table} b ON b.id = m.team_b_id
JOIN {Tournament._meta.db_table} t ON t.id = m.tournament_id
WHERE m.id = %s
"""  # noqa: S608 - our own tables, no input
SHEET_FIELDS = (
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
)


def match_locked(match_id: int) -> Match:
    """The match row, locked until the transaction ends, with its tournament and its
    teams (what a write shows of them; the rest loads if asked for), in one query.
    Must run inside a transaction."""
    sql = _MATCH_SQL
    if connection.features.has_select_for_update:
        sql += " FOR UPDATE OF m"  # the match's row only, not its teams'
    found = list(Match.objects.raw(sql, [match_id]))
    if not found:
        raise Match.DoesNotExist(f"no match {match_id}")
    match = found[0]
    db = match._state.db
    match.tournament = Tournament.from_db(
        db,
        list(_TOURNAMENT_FIELDS),
        [getattr(match, f"tournament_{f}") for f in _TOURNAMENT_FIELDS],
    )
    match.team_a = Team.from_db(
        db, ["id", "name"], [match.team_a_id, match.team_a_name]
    )
    match.team_b = Team.from_db(
        db, ["id", "name"], [match.team_b_id, match.team_b_name]
    )
    return match


def _sheet_save(match: Match) -> None:
    """Store the sheet's figures on the match row (SHEET_FIELDS), as
    save(update_fields=...) would, in one plain UPDATE."""
    match.updated_at = timezone.now()
    fields = [Match._meta.get_field(name) for name in SHEET_FIELDS]
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Match._meta.db_table} SET "  # noqa: S608 - our own columns
            + ", ".join(f"{quote(f.column)} = %s" for f in fields)
            + " WHERE id = %s",
            [
                *(
                    f.get_db_prep_save(getattr(match, f.attname), connection)
                    for f in fields
                ),
                match.pk,
            ],
        )


def _version_check(match: Match, version: int | None) -> None:
    if version is not None and version != match.version:
        raise ConflictError(
            "stale_version",
            f"The sheet changed since you read it (you sent version {version}; it is "
            f"now version {match.version}). Nothing was saved: read it again and "
            "repeat your change if it is still needed.",
            current_version=match.version,
        )


def actor_name(user) -> str:
    return user.get_username() if user is not None and user.is_authenticated else ""


# Where the changes being written come from: ("app", "") for the API and the pages;
# the import of a filled score sheet sets ("file", "<file>, <worksheet>, row <n>") for
# each change it makes, so the history says which file and row a deal came from.
_ORIGIN: ContextVar[tuple[str, str]] = ContextVar("sheet_change_origin")


@contextmanager
def changes_from(source: str, origin: str) -> Iterator[None]:
    """The changes written inside come from `source` ("file"), at `origin` (the
    file, worksheet and row): the history says so."""
    token = _ORIGIN.set((source, origin))
    try:
        yield
    finally:
        _ORIGIN.reset(token)


def _change_row(
    match: Match,
    action: SheetAction,
    *,
    user,
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> SheetChange:
    """The history row of a change, not yet saved: who, where from, before and after,
    and the request's Idempotency-Key on the first row the request writes."""
    source, origin = _ORIGIN.get(("app", ""))
    slot = _REQUEST_KEY.get()
    return SheetChange(
        request_key=slot.pop() if slot else "",
        source=source,
        match=match,
        version=match.version,
        action=action,
        actor=user if user is not None and user.is_authenticated else None,
        actor_name=actor_name(user),
        before=before,
        after=after,
        reason=reason or origin,
    )


def _change(match: Match, action: SheetAction, **row: Any) -> None:
    _change_row(match, action, **row).save()


# The rows of one sheet, read on every write: plain SQL, which costs a third of the
# same read built by the ORM's compiler. Most sheets have no penalty: the deals'
# read counts them, and the penalties are read only when there are some.
_DEALS_SQL = f"""
SELECT d.*, (
  SELECT COUNT(*) FROM {Penalty._meta.db_table} p WHERE p.deal_id = d.id
) AS penalty_count
FROM {Deal._meta.db_table} d WHERE d.match_id = %s ORDER BY d.number
"""  # noqa: S608 - our own tables, no input
_PENALTIES_SQL = f"""
SELECT p.* FROM {Penalty._meta.db_table} p
JOIN {Deal._meta.db_table} d ON d.id = p.deal_id
WHERE d.match_id = %s ORDER BY p.id
"""  # noqa: S608 - our own tables, no input


def sheet_rows(match: Match) -> tuple[list[Deal], list[Penalty]]:
    """The sheet's deals in number order and its penalties in the order entered."""
    deals = list(Deal.objects.raw(_DEALS_SQL, [match.pk]))
    penalties = []
    if any(d.penalty_count for d in deals):
        penalties = list(Penalty.objects.raw(_PENALTIES_SQL, [match.pk]))
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
    _sheet_save(match)
    match.sheet = sheet
    return sheet


# Matches
# ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchPlan:
    """One match to set up: its teams, round and table, and its deals (None: the
    tournament's league deals)."""

    team_a: int
    team_b: int
    round: int
    table: int
    deals_scheduled: int | None = None


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
    plan = MatchPlan(team_a, team_b, round, table, deals_scheduled)
    (match,) = matches_create(
        tournament=tournament, user=user, stage=stage, plans=[plan]
    )
    return match


@transaction.atomic
def matches_create(
    *, tournament: Tournament, user, stage: str, plans: list[MatchPlan]
) -> list[Match]:
    """Matches set up together (a knockout's first sheets), each checked as
    match_create checks one, written in bulk with their history: the first refusal
    names its field, and nothing is written. The database's named constraints hold
    the rest of each row."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    wanted = {pk for p in plans for pk in (p.team_a, p.team_b)}
    teams = {t.pk: t for t in Team.objects.filter(tournament=tournament, pk__in=wanted)}
    rounds = {p.round for p in plans}
    existing = list(
        Match.objects.filter(tournament=tournament, stage=stage, round__in=rounds)
        .order_by()
        .values_list("round", "table", "team_a_id", "team_b_id")
    )
    tables = {(r, t) for r, t, _, _ in existing}
    busy = {(r, team) for r, _, a, b in existing for team in (a, b)}
    matches = []
    for plan in plans:
        a, b = _plan_check(tournament, stage, plan, teams, tables, busy)
        tables.add((plan.round, plan.table))
        busy |= {(plan.round, a.pk), (plan.round, b.pk)}
        match = Match(
            tournament=tournament,
            stage=stage,
            round=plan.round,
            table=plan.table,
            team_a=a,
            team_b=b,
            deals_scheduled=(
                tournament.league_deals
                if plan.deals_scheduled is None
                else plan.deals_scheduled
            ),
        )
        # The fields' own checks; the constraints are the database's, on insert.
        match.full_clean(validate_constraints=len(plans) == 1)
        matches.append(match)
    created = Match.objects.bulk_create(matches)
    if any(m.pk is None for m in created):  # SQLite before 3.35 returns no ids
        stored = {
            (m.round, m.table): m
            for m in Match.objects.filter(
                tournament=tournament, stage=stage, round__in=rounds
            )
        }
        created = [stored[m.round, m.table] for m in matches]
    SheetChange.objects.bulk_create(
        _change_row(
            m,
            SheetAction.MATCH_CREATE,
            user=user,
            after={
                "team_a": m.team_a.name,
                "team_b": m.team_b.name,
                "stage": stage,
                "round": m.round,
                "table": m.table,
                "deals_scheduled": m.deals_scheduled,
            },
        )
        for m in created
    )
    return created


def _plan_check(tournament, stage, plan: MatchPlan, teams, tables, busy):
    """The two teams of `plan`, or the refusal that names the field."""
    for field, pk in (("team_a", plan.team_a), ("team_b", plan.team_b)):
        if pk not in teams:
            raise RuleError(
                "unknown_team",
                f"there is no team {pk} in {tournament.name}.",
                field=field,
            )
    if plan.team_a == plan.team_b:
        raise RuleError(
            "same_team", "a team cannot play itself; choose two teams.", field="team_b"
        )
    a, b = teams[plan.team_a], teams[plan.team_b]
    if stage == Stage.LEAGUE:
        if a.section_id == b.section_id:
            raise RuleError(
                "same_section",
                f"{a.name} and {b.name} are both in section {a.section}; in the league "
                "no team meets a team of its own section (rules.md §5).",
                field="team_b",
            )
        if not 1 <= plan.round <= tournament.league_rounds:
            raise RuleError(
                "round_out_of_range",
                f"the league of {tournament.name} has rounds 1 to "
                f"{tournament.league_rounds}.",
                field="round",
            )
    if (plan.round, plan.table) in tables:
        raise ConflictError(
            "table_taken",
            f"table {plan.table} of {stage} round {plan.round} already has a match.",
            field="table",
        )
    if stage == Stage.LEAGUE and {(plan.round, a.pk), (plan.round, b.pk)} & busy:
        # The final's games share a knockout round.
        raise ConflictError(
            "team_busy",
            f"{a.name} or {b.name} already plays in {stage} round {plan.round}; a team "
            "plays one match per round.",
        )
    return a, b


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


def deal_check(match: Match, values: dict[str, Any]) -> rules.Deal:
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
        rows.append(sheet_rows(match))  # read once, under the lock, and used below
        try:
            deal = deal_check(match, values)
        except (RuleError, RuleErrors):
            return False  # refused below, in the usual order (locked, stale, rules)
        return any(
            all(getattr(d, f) == getattr(deal, f) for f in DEAL_FIELDS)
            for d in rows[0][0]
        )

    match = _sheet_open(
        match_id=match_id, version=version, action="add a deal", done=done
    )
    checked = deal_check(match, values)
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
    deals, penalties = sheet_rows(match)
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
    checked = deal_check(match, {"number": number, **values})
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
    deals, penalties = sheet_rows(match)
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
    deals, penalties = sheet_rows(match)
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
        sheet, settled = sheet_settle(match, *sheet_rows(match))
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
    sheet, _ = sheet_settle(match, *sheet_rows(match))
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
    deals, penalties = sheet_rows(match)
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
    deals, penalties = sheet_rows(match)
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
