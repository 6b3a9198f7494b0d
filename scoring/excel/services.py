"""Writes of Excel (docs/exports.md): export jobs of the tournament workbook, built in
the background by a Celery worker, and filled paper score sheets imported back through
the score-sheet services, all or nothing.

A job must never stay queued or running for nothing. Its task is sent when its row
commits, and a queue that cannot be reached fails it at once. A run claims the job
(one run at a time builds it) and beats while it builds (`ExportJob.beat_at`); a job
whose beat went stale (its worker was killed, its task was lost with Redis's queue)
is sent again by any live worker, within seconds rather than after the broker's
visibility timeout (the periodic `scoring.export_orphans_resend`, which Celery beat
sends). The claim is what makes every copy of a task safe: the one the broker gives
back late finds the job done and does nothing.

The build's own progress is its beat: each progress write sets `beat_at` too, and
one is written at least every EXPORT_BEAT_SECONDS while score sheets are written, so
no thread of its own beats beside the build. That holds because no step of the build
runs long without telling its progress: on the 500-team championship of
bench/export.py (2,000 score sheets, 36,000 deals, a 3.4 MB file, 6 s in all on
SQLite, 2026-12-08), the longest stretch without a progress call was 0.9 s (the
sheets before the score sheets), then 0.8 s (the sheets after them and the file's
close), and 0.02 s between two score sheets; EXPORT_STALE_SECONDS is 15. A build that
stalls (a lock it waits for, a worker stopped) stops beating and is taken over, as
a dead one is.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import (
    DatabaseError,
    InterfaceError,
    OperationalError,
    close_old_connections,
    connection,
    transaction,
)
from django.db.models import Q, QuerySet
from django.utils import timezone

from tournament.domain.errors import (
    ConflictError,
    ForbiddenError,
    RuleError,
    RuleErrors,
    filled,
    marked,
)
from tournament.domain.rulesets import RuleSet, ruleset_get
from tournament.models import Tournament, account
from tournament.ops.health import worker_seen
from tournament.ops.queue import task_send
from tournament.ops.tasks import periodic_attempt
from tournament.xlsx.uploads import xlsx_limits

from ..domain import rules, tiebreak
from ..domain.rules import MatchStatus, PenaltyKind
from ..models import (
    EXPORT_UNSENT,
    ExportJob,
    ExportStatus,
    Match,
    Penalty,
)
from ..sheets import services as sheets
from ..sheets import toss as sheet_toss
from ..sheets.locking import DEAL_FIELDS, Origin, sheet_rows
from ..sheets.services import deal_check, deal_extras
from . import paper
from .selectors import (
    tournament_workbook,
)

logger = logging.getLogger(__name__)

# The tournament workbook, built in the background (docs/exports.md)
# ----------------------------------------------------------------------------------

EXPORTS_KEPT = 5  # finished workbooks kept per tournament; older ones are deleted
EXPORT_STALE = timedelta(minutes=10)  # a job not heard from this long is dead
EXPORT_ATTEMPTS = 3  # runs of one job at most: a build that kills its worker stops
LIVE_EXPORT = (ExportStatus.QUEUED, ExportStatus.RUNNING)
EXPORT_BUILD = "scoring.export_build"  # the task (scoring/excel/tasks.py), by its name
# The database gone mid-build (a restart, a lost connection): not the build's fault.
DATABASE_GONE = (OperationalError, InterfaceError)


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
    sent when the job's row is committed (with eager Celery, it runs then, in the
    request); when the worker's queue cannot be reached the job is failed at once,
    `unsent`, rather than left queued for a task that does not exist.
    """
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    live = export_live(tournament).first()
    if live is not None:
        return live, False
    job = ExportJob.objects.create(
        tournament=tournament,
        requested_by=account(user),
        total=Match.objects.filter(tournament=tournament).count(),
        beat_at=timezone.now(),
    )
    transaction.on_commit(partial(_export_send, job.pk))
    return job, True


def _export_send(job_id: int) -> None:
    if not task_send(EXPORT_BUILD, job_id, missed="the workbook's job is failed"):
        ExportJob.objects.filter(pk=job_id, status=ExportStatus.QUEUED).update(
            status=ExportStatus.FAILED, error=EXPORT_UNSENT, finished_at=timezone.now()
        )


def _stale() -> datetime:
    return timezone.now() - timedelta(seconds=settings.EXPORT_STALE_SECONDS)


def export_orphans() -> QuerySet[ExportJob]:
    """Jobs queued or running that nobody works on: their task was lost, or the
    worker building them died (their beat is older than EXPORT_STALE_SECONDS)."""
    return ExportJob.objects.filter(status__in=LIVE_EXPORT).filter(
        Q(beat_at__isnull=True) | Q(beat_at__lt=_stale())
    )


def export_orphans_resend() -> int:
    """Put every orphaned job back in the queue and send its task again; how many.

    A live worker runs this every WORKER_BEAT_SECONDS, sent by Celery beat
    (scoring/excel/tasks.py, export_orphans_resend_task). Two workers doing it at
    once send each job once: only the one whose write finds the job as it read it
    sends. A copy of the task that the broker gives back later finds the job claimed
    or done, and does nothing.
    """
    sent = 0
    for pk, beat_at in export_orphans().values_list("pk", "beat_at"):
        # Still the orphan it was when read: another worker did not send it since.
        requeued = (
            export_orphans()
            .filter(pk=pk, beat_at=beat_at)
            .update(status=ExportStatus.QUEUED, progress=0, beat_at=timezone.now())
        )
        if requeued:
            logger.warning("export %s had no live worker: sent again", pk)
            sent += task_send(
                EXPORT_BUILD, pk, missed="the next beat of a worker sends it again"
            )
    return sent


def _export_claim(job_id: int) -> ExportJob | None:
    """Take the job for this run (its status `running`, its attempts one more), or
    None: it is done or failed, or another run is building it (its beat is fresh)."""
    with transaction.atomic():
        job = (
            ExportJob.objects.select_for_update(of=("self",))
            .select_related("tournament")
            .filter(pk=job_id)
            .first()
        )
        if job is None or job.status not in LIVE_EXPORT:
            return None
        fresh = job.beat_at is not None and job.beat_at >= _stale()
        if job.status == ExportStatus.RUNNING and fresh:
            return None
        now = timezone.now()
        if job.attempts >= EXPORT_ATTEMPTS:
            ExportJob.objects.filter(pk=job_id).update(
                status=ExportStatus.FAILED,
                error=f"the build was interrupted {job.attempts} times (its worker "
                "stopped, or lost the database); start it again",
                finished_at=now,
            )
            return None
        # Compare and set: SQLite has no row lock, and a second run must not claim
        # the job between the read and the write.
        claimed = ExportJob.objects.filter(
            pk=job_id, status=job.status, attempts=job.attempts
        ).update(
            status=ExportStatus.RUNNING,
            progress=0,
            attempts=job.attempts + 1,
            beat_at=now,
            updated_at=now,
        )
        if not claimed:
            return None
    job.status, job.progress, job.attempts = ExportStatus.RUNNING, 0, job.attempts + 1
    return job


def export_run(*, job_id: int, beat: bool = False) -> ExportJob | None:
    """Build the workbook of job `job_id` and keep it; None when this run does not
    build it: the job is done or failed, or another run is building it (a task
    delivered twice builds once).

    Progress is written as the score sheets go, each in its own short statement (no
    transaction is held while the file is built), and with it the job's beat, at
    least every EXPORT_BEAT_SECONDS; with `beat` (a worker's run) each beat marks the
    worker seen too, so a worker busy with long builds is still seen
    (tournament/ops/health.py). The file and the status `done` are written together,
    in one transaction, so a worker killed midway leaves a job that offers no file
    and soon stops beating: a live worker sends it again (export_orphans_resend),
    and the new run starts over. A run that another has taken the job from (its beat
    was stale) writes nothing more.

    The database going away mid-build is not the build's failure: the job is put
    back in the queue if the database still answers, and the error raised for the
    task to retry (scoring/excel/tasks.py); if it does not, the job stops beating and is
    an orphan like any other.
    """
    job = _export_claim(job_id)
    if job is None:
        return None
    attempt = job.attempts
    mine = ExportJob.objects.filter(
        pk=job_id, status=ExportStatus.RUNNING, attempts=attempt
    )
    step = {"last": 0, "beat": time.monotonic()}

    def progress(done: int, total: int) -> None:
        counted = done - step["last"] >= max(1, total // 50) or done == total
        due = time.monotonic() - step["beat"] >= settings.EXPORT_BEAT_SECONDS
        if not (counted or due):
            return
        step["last"], step["beat"] = done, time.monotonic()
        now = timezone.now()
        mine.update(progress=done, total=total, beat_at=now, updated_at=now)
        if beat:
            periodic_attempt("mark the worker as seen in the cache", worker_seen)

    try:
        content = tournament_workbook(tournament=job.tournament, progress=progress)
    except DATABASE_GONE:
        logger.warning("export %s lost the database mid-build", job_id)
        if not connection.in_atomic_block:
            close_old_connections()  # a broken connection is opened afresh
        # Back in the queue for the task's retry; if the database is still gone, the
        # job stops beating instead, and a live worker sends it again later.
        with suppress(DatabaseError):
            mine.update(status=ExportStatus.QUEUED, progress=0, beat_at=timezone.now())
        raise
    except Exception as error:
        mine.update(
            status=ExportStatus.FAILED,
            error=f"{type(error).__name__}: {error}"[:2000],
            finished_at=timezone.now(),
        )
        logger.exception("export %s of %s failed", job_id, job.tournament.slug)
        return ExportJob.objects.get(pk=job_id)
    with transaction.atomic():
        job = ExportJob.objects.select_for_update().get(pk=job_id)
        if (job.status, job.attempts) != (ExportStatus.RUNNING, attempt):
            return None  # another run took the job over
        job.content = content
        job.size = len(content)
        job.status = ExportStatus.DONE
        job.progress = job.total = max(job.total, step["last"])
        job.finished_at = job.beat_at = timezone.now()
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

    def __init__(self, problems: list[paper.FileProblem], message: str = "") -> None:
        self.problems = problems
        self.message = message or filled(
            marked(
                "Nothing was imported: %(count)s problem(s) in the file. Correct them "
                "and import the whole file again."
            ),
            count=len(problems),
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
    sheet: paper.FileSheet,
    row: int | None,
    error: Exception,
    name: str = "sheet",
) -> list[paper.FileProblem]:
    if isinstance(error, RuleErrors):
        return [_problem(sheet, row, e, name)[0] for e in error.errors]
    message = error.words if isinstance(error, RuleError) else str(error)
    where = getattr(error, "field", None) or name
    return [paper.FileProblem(sheet.worksheet, row, where, message)]


@dataclass(frozen=True)
class _Wanted:
    """A deal as the file has it, checked: its row, the deal, and the bidder and
    auction (None where the sheet has no such column: the site's are kept)."""

    row: int
    deal: rules.Deal
    bidder: str | None
    auction: str | None


def _file_deals(
    sheet: paper.FileSheet, match: Match
) -> tuple[dict[int, _Wanted], list[paper.FileProblem]]:
    """The file's deals checked one row at a time: {number: wanted}."""
    found: dict[int, _Wanted] = {}
    problems: list[paper.FileProblem] = []
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
            deal = deal_check(match, values)
            bidder, auction = deal_extras(
                match, deal, line.bidder or "", line.auction or ""
            )
        except (RuleError, RuleErrors) as error:
            problems += _problem(sheet, line.row, error)
            continue
        if deal.number in found:
            problems.append(
                paper.FileProblem(
                    sheet.worksheet,
                    line.row,
                    "number",
                    filled(
                        marked(
                            "deal %(number)s is also on row %(row)s: a deal is entered "
                            "once."
                        ),
                        number=deal.number,
                        row=found[deal.number].row,
                    ),
                )
            )
            continue
        found[deal.number] = _Wanted(
            line.row,
            deal,
            None if line.bidder is None else bidder,
            None if line.auction is None else auction,
        )
    return found, problems


PenaltyKey = tuple[int, str, str, int | None, str]


def _file_penalties(
    sheet: paper.FileSheet, numbers: set[int], rule_set: RuleSet
) -> tuple[list[tuple[int, PenaltyKey]], list[paper.FileProblem]]:
    found: list[tuple[int, PenaltyKey]] = []
    problems: list[paper.FileProblem] = []
    for line in sheet.penalties:
        here: list[paper.FileProblem] = []

        def refuse(name: str, message: str, here=here, line=line) -> None:
            here.append(paper.FileProblem(sheet.worksheet, line.row, name, message))

        deal = line.deal
        if isinstance(deal, bool) or not isinstance(deal, int):
            refuse("deal", marked("the penalty's deal must be a deal number."))
        elif deal not in numbers:
            refuse(
                "deal",
                filled(marked("there is no deal %(deal)s on this sheet."), deal=deal),
            )
        if line.offender not in ("A", "B"):
            refuse(
                "offender",
                marked("the offender must be A or B (team A or team B)."),
            )
        try:
            kind = PenaltyKind(str(line.kind))
        except ValueError:
            kinds = ", ".join(k.value for k in PenaltyKind)
            refuse(
                "kind",
                filled(
                    marked("'%(kind)s' is not a penalty; the kinds are %(kinds)s."),
                    kind=line.kind,
                    kinds=kinds,
                ),
            )
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
                        "not_a_number",
                        marked("points must be a whole number."),
                        field="points",
                    )
                rules.check_penalty_points(kind, points, rule_set)  # type: ignore[arg-type]
            except RuleError as error:
                here += _problem(sheet, line.row, error, "points")
        if here:
            problems += here
            continue
        key = (deal, str(line.offender), kind.value, points, line.note)  # type: ignore[union-attr]
        found.append((line.row, key))  # type: ignore[arg-type]
    return found, problems


def _sheet_import(
    sheet: paper.FileSheet, match: Match, *, user, filename: str
) -> tuple[SheetImported, list[paper.FileProblem]]:
    """Make one sheet what its file says, through the services of the API."""
    done = SheetImported(match=match, worksheet=sheet.worksheet)
    wanted, problems = _file_deals(sheet, match)
    wanted_penalties, more = _file_penalties(
        sheet, set(wanted), ruleset_get(match.tournament.ruleset)
    )
    problems += more
    toss = (sheet.toss_winner, sheet.first_dealer)
    if any(toss) and not all(v in ("A", "B") for v in toss):
        problems.append(
            paper.FileProblem(
                sheet.worksheet,
                sheet.toss_row,
                "toss",
                marked(
                    "the toss needs both who won it and who deals first, each A or B."
                ),
            )
        )
    if problems:
        return done, problems

    deals, penalties = sheet_rows(match)
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
                paper.note_text(p.note),
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

    def extras(n: int) -> dict[str, str]:
        """The bidder and auction deal n is to have: the file's, or where the
        sheet has no such column, what the site holds."""
        w, held = wanted[n], have.get(n)
        return {
            name: got if got is not None else getattr(held, name, "")
            for name, got in (("bidder", w.bidder), ("auction", w.auction))
        }

    change = [
        n
        for n in sorted(wanted)
        if n in have
        and (
            tuple(getattr(have[n], f) for f in DEAL_FIELDS)
            != tuple(getattr(wanted[n].deal, f) for f in DEAL_FIELDS)
            or extras(n) != {"bidder": have[n].bidder, "auction": have[n].auction}
        )
    ]
    add = [n for n in sorted(wanted) if n not in have]
    have_toss = (match.toss_winner, match.first_dealer)
    toss_changes = all(toss) and toss != have_toss
    toss_goes = have_toss[0] and (not any(toss) or toss_changes)
    if not (drop_penalties or add_penalties or drop or change or add or toss_changes):
        return done, []  # a sheet as the file says, locked or not, is left alone
    if match.status == MatchStatus.VOID or match.locked:
        what = (
            marked("void")
            if match.status == MatchStatus.VOID
            else marked("confirmed and locked")
        )
        return done, [
            paper.FileProblem(
                sheet.worksheet,
                None,
                "match",
                filled(
                    marked(
                        "the file changes the sheet of %(match)s, which is %(what)s; "
                        "an "
                        "organizer reopens it first, then imports the "
                        "file."
                    ),
                    match=match,
                    what=what,
                ),
            )
        ]
    if sheet.version is not None and sheet.version != match.version:
        return done, [
            paper.FileProblem(
                sheet.worksheet,
                None,
                "version",
                filled(
                    marked(
                        "the sheet changed since this file was made (version "
                        "%(version)s "
                        "in the file, %(version_2)s now). Nothing was imported: "
                        "download "
                        "the sheet again, copy your entries into it and import that."
                    ),
                    version=sheet.version,
                    version_2=match.version,
                ),
            )
        ]

    where = f"{filename}, worksheet {sheet.worksheet}"

    def step(row: int | None, call, *args, **kwargs) -> None:
        origin = Origin(
            "file", f"Imported from {where}" + (f", row {row}" if row else "")
        )
        call(*args, match_id=match.pk, user=user, version=None, origin=origin, **kwargs)

    row_of = {n: w.row for n, w in wanted.items()}
    try:
        for penalty in drop_penalties:
            step(None, sheets.score_sheet_penalty_delete, penalty_id=penalty.pk)
            done.penalties_deleted += 1
        if toss_goes:
            step(sheet.toss_row, sheet_toss.score_sheet_toss_delete)
        for n in drop:
            step(None, sheets.score_sheet_deal_delete, number=n)
            done.deleted += 1
        for n in change:
            values = {
                f: getattr(wanted[n].deal, f) for f in DEAL_FIELDS if f != "number"
            }
            step(
                row_of[n],
                sheets.score_sheet_deal_replace,
                number=n,
                **values,
                **extras(n),
            )
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
                    sheet_toss.score_sheet_toss_record,
                    winner=toss[0],
                    first_dealer=toss[1],
                )
                done.toss = True
            values = {f: getattr(wanted[n].deal, f) for f in DEAL_FIELDS}
            step(row_of[n], sheets.score_sheet_deal_record, **values, **extras(n))
            done.added += 1
        if toss_changes and not done.toss:
            step(
                sheet.toss_row,
                sheet_toss.score_sheet_toss_record,
                winner=toss[0],
                first_dealer=toss[1],
            )
            done.toss = True
        for row, (deal, offender, kind, points, note) in add_penalties:
            step(
                row,
                sheets.score_sheet_penalty_record,
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
    *, tournament: Tournament, user, sheets: list[paper.FileSheet], filename: str
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
    problems: list[paper.FileProblem] = []
    for sheet in sheets:
        match = matches.get(sheet.match)
        if match is None:
            problems.append(
                paper.FileProblem(
                    sheet.worksheet,
                    None,
                    "match",
                    filled(
                        marked("match %(match)s is not a match of %(tournament)s."),
                        match=sheet.match,
                        tournament=tournament.name,
                    ),
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
    """Read a filled .xlsx of score sheets (paper.score_sheets_read) and import it
    (score_sheets_import); SheetImportRefused for a file of the wrong shape too."""
    try:
        sheets = paper.score_sheets_read(content, xlsx_limits())
    except paper.FileRefused as refused:
        raise SheetImportRefused(refused.problems, refused.message) from None
    return score_sheets_import(
        tournament=tournament, user=user, sheets=sheets, filename=filename
    )
