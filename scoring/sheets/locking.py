"""What every write to a score sheet shares: the lock, the version, the history and
the rescoring (scoring/sheets/services.py makes the writes with them).

A write reads its match under a row lock (`match_locked`: plain SQL, PostgreSQL's
FOR UPDATE; SQLite's IMMEDIATE transactions do the same for the embedded default),
checks the sheet is open and the caller's `version` current (`sheet_open`,
`version_check`), answers a retried request as done (`replay_check`, `Replayed`),
reads the sheet's rows (`sheet_rows`), recomputes the whole sheet with
rules.score_sheet (`rescore`), saves the match's figures (`sheet_save`) and appends a
history row with who, before and after (`change`, `Origin`).

Every input is an argument: a write's Idempotency-Key (`idempotency_key`, from the
API's or the score page's request) and where its changes come from (`origin`, the
import of a filled paper sheet) are keyword arguments of each service, passed down to
`sheet_open`/`replay_check` and to the first history row the service writes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, NamedTuple

from django.db import connection, router
from django.utils import timezone

from tournament.db.raw import from_row
from tournament.domain.errors import ConflictError, marked
from tournament.models import Team, Tournament, account

from ..domain import rules, tiebreak
from ..domain.rules import MatchStatus, Stage
from ..models import (
    Deal,
    Match,
    Penalty,
    SheetAction,
    SheetChange,
)
from .selectors import (
    sheet_settle,
)
from .tallies import tallies_store, tally_of_sheet

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


IDEMPOTENCY_KEY = "Idempotency-Key"  # the header


def key_ok(key: str) -> bool:
    """An Idempotency-Key the sheet's history can keep: 1 to 100 printable ASCII."""
    return 0 < len(key) <= 100 and key.isprintable() and key.isascii()


def request_key(request) -> str | None:
    """The request's Idempotency-Key for its write's service, or None without a
    usable one (the API refuses an unusable key first; the score page's own queue
    sends only usable ones)."""
    key = request.headers.get(IDEMPOTENCY_KEY, "")
    return key if key_ok(key) else None


def replay_check(
    match: Match,
    done: Callable[[Match], bool] | None = None,
    *,
    idempotency_key: str | None = None,
) -> None:
    """Raise Replayed if the request was done before: its `idempotency_key` (the
    client's Idempotency-Key, checked by key_ok) is in the match's history, or
    `done` says the very change is already there."""
    if (
        idempotency_key
        and SheetChange.objects.filter(
            match=match, request_key=idempotency_key
        ).exists()
    ):
        raise Replayed(match)
    if done is not None and done(match):
        raise Replayed(match)


def sheet_open(
    *,
    match_id: int,
    version: int | None,
    action: str,
    done: Callable[[Match], bool] | None = None,
    idempotency_key: str | None = None,
) -> Match:
    """The match row, locked until the transaction ends; refuses a locked sheet and a
    stale version. A request done before (its `idempotency_key`, or `done`) raises
    Replayed first, so a retry after a lost answer is answered even though its
    version is now stale. Must run inside a transaction."""
    match = match_locked(match_id)
    replay_check(match, done, idempotency_key=idempotency_key)
    if match.status == MatchStatus.VOID:
        raise ConflictError(
            "sheet_void",
            marked(
                "Cannot %(action)s: the sheet of %(match)s is void (set aside by an "
                "organizer; its history says why) and stays as it is."
            ),
            action=action,
            match=match,
        )
    if match.status == MatchStatus.FORFEITED:
        raise ConflictError(
            "sheet_locked",
            marked(
                "Cannot %(action)s: the sheet of %(match)s is forfeited (both teams "
                "were absent) and locked; only an organizer can reopen it."
            )
            if match.forfeit_absent == "both"
            else marked(
                "Cannot %(action)s: the sheet of %(match)s is forfeited (team "
                "%(absent)s was absent) and locked; only an organizer can reopen it."
            ),
            action=action,
            match=match,
            absent=match.forfeit_absent,
        )
    if match.locked:
        raise ConflictError(
            "sheet_locked",
            marked(
                "Cannot %(action)s: the sheet of %(match)s is confirmed and locked; "
                "only an organizer can reopen it."
            ),
            action=action,
            match=match,
        )
    version_check(match, version)
    return match


# The locked read of every sheet write, and the match's update after it, in plain
# SQL: the ORM's compiler costs more to build these than the database to run them
# (docs/performance.md; the figures against select_for_update with select_related
# are in tournament/db/raw.py). The row lock is PostgreSQL's FOR UPDATE; the embedded
# SQLite has one writer at a time anyway.
# What a sheet write shows of the match's tournament and teams; the rest of them
# loads if some step asks for it. In the model's order, as Model.from_db wants it.
_TOURNAMENT_FIELDS = tuple(
    f.attname
    for f in Tournament._meta.concrete_fields
    if f.attname in ("id", "name", "slug", "ruleset", "players_per_team")
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
    "tally",
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
    db = router.db_for_write(Match, instance=match)  # the database it was read from
    match.tournament = from_row(
        Tournament,
        db,
        list(_TOURNAMENT_FIELDS),
        [getattr(match, f"tournament_{f}") for f in _TOURNAMENT_FIELDS],
    )
    match.team_a = from_row(
        Team, db, ["id", "name"], [match.team_a_id, match.team_a_name]
    )
    match.team_b = from_row(
        Team, db, ["id", "name"], [match.team_b_id, match.team_b_name]
    )
    return match


def sheet_save(match: Match) -> None:
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


def version_check(match: Match, version: int | None) -> None:
    if version is not None and version != match.version:
        raise ConflictError(
            "stale_version",
            marked(
                "The sheet changed since you read it (you sent version %(version)s; "
                "it is now version %(current_version)s). Nothing was saved: read it "
                "again and repeat your change if it is still needed."
            ),
            current_version=match.version,
            version=version,
        )


def actor_name(user) -> str:
    """Who made a change, as the history keeps it: a username, a link's label
    ("table 12 link"), or nothing for an anonymous change (a file import)."""
    return user.get_username() if user is not None else ""


class Origin(NamedTuple):
    """Where a change comes from, as its history row says: `source` "app" (the API
    and the pages) or "file" (the import of a filled score sheet), and `where` (the
    file, worksheet and row a deal came from), kept as the row's reason."""

    source: str = "app"
    where: str = ""


APP = Origin()


def change_row(
    match: Match,
    action: SheetAction,
    *,
    user,
    before: Any = None,
    after: Any = None,
    reason: str = "",
    idempotency_key: str | None = None,
    origin: Origin | None = None,
) -> SheetChange:
    """The history row of a change, not yet saved: who, where from (`origin`, the app
    if None), before and after, and the request's `idempotency_key`: a service gives
    it to the first row it writes only (a key is kept once per match)."""
    source, where = origin or APP
    return SheetChange(
        request_key=idempotency_key or "",
        source=source,
        match=match,
        version=match.version,
        action=action,
        actor=account(user),
        actor_name=actor_name(user),
        before=before,
        after=after,
        reason=reason or where,
    )


def change(match: Match, action: SheetAction, **row: Any) -> None:
    change_row(match, action, **row).save()


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


def rescore(match: Match, deals: list[Deal], penalties: list[Penalty]) -> rules.Sheet:
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
            raise ConflictError(
                code,
                marked("Nothing was saved: %(reason)s"),
                field=field,
                reason=message,
            )
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
    match.tally = tally_of_sheet(deals, penalties)
    match.version += 1
    sheet_save(match)
    tallies_store([match.pk])
    match.sheet = sheet
    return sheet
