"""Backups of one tournament or of some of its sheets: taken, kept, restored in place,
and imported into another site (docs/backups.md). Every write is one transaction;
a restore first keeps a backup of what it replaces.

The automatic backups (`backup_before_step`, `backup_before_reopening`) are written
in the step's own transaction: the backup exists exactly when the step was taken.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Field, Model
from django.utils import timezone

from ..accounts.users import SiteUsernames, username_refusals_of
from ..db.raw import raw_delete
from ..domain.errors import filled, marked
from ..domain.types import Role
from ..domain.usernames import username_form, username_key, username_refusal
from ..models import Backup, BackupScope, SheetCopy, Tournament, account
from ..persons.services import seats_held, seats_sync
from ..persons.signals import ratings_stale
from . import site
from .api_rules import api_refusal, json_type_refusal, status_refusal
from .archive import (
    BRACKET_PARTS,
    LOAD_ORDER,
    PEOPLE,
    SHEET_PARTS,
    TOURNAMENT_PARTS,
    Archive,
    BackupRefused,
    Line,
    file_read,
    file_write,
    line_pack,
    model_of,
    people_line,
    rows_of,
    table,
)
from .binary import binary_rows, content_store
from .copies import kept_lines, sheet_copies_keep
from .rows import Rows, aware, column_clean, insert_raw, range_clean, refused_row
from .upgrades import Written, archive_bring_forward

__all__ = [
    "BackupRefused",
    "backup_before_reopening",
    "backup_before_step",
    "backup_restore",
    "backup_take",
    "sheet_copies_keep",
    "tournament_import",
]


# Taking a backup
# ----------------------------------------------------------------------------------


def _tournament_lines(tournament: Tournament) -> list[Line]:
    tables = {
        label: table(model_of(label), rows_of(model_of(label), **{path: tournament.pk}))
        for label, path in {**TOURNAMENT_PARTS, **BRACKET_PARTS}.items()
    }
    counts = {label: len(part["rows"]) for label, part in tables.items()}
    lines = [
        line_pack({"tables": tables}, counts),
        *kept_lines(tournament, tournament_id=tournament.pk),
    ]
    return [people_line(lines), *lines]


def _sheets_lines(
    tournament: Tournament, sheets: list[int], knockout_matches: list[int]
) -> list[Line]:
    tables = {}
    if knockout_matches:
        for label, where in (
            ("brackets.knockoutmatch", {"pk__in": knockout_matches}),
            ("brackets.game", {"knockout_match__in": knockout_matches}),
        ):
            tables[label] = table(model_of(label), rows_of(model_of(label), **where))
    counts = {label: len(part["rows"]) for label, part in tables.items()}
    lines = [
        line_pack({"tables": tables}, counts),
        *kept_lines(tournament, tournament_id=tournament.pk, pk__in=sheets),
    ]
    return [people_line(lines), *lines]


def _about(tournament: Tournament) -> dict[str, Any]:
    return {
        "id": tournament.pk,
        "slug": tournament.slug,
        "name": tournament.name,
        "status": tournament.status,
    }


@transaction.atomic
def backup_take(
    *,
    tournament: Tournament,
    reason: str,
    user=None,
    automatic: bool = False,
    sheets: list[int] | None = None,
    knockout_matches: list[int] | None = None,
) -> Backup:
    """A backup of the tournament, or (with `sheets`) of those sheets and the
    knockout matches they are games of; kept in the database, pruned if automatic."""
    now = timezone.now()
    scope = BackupScope.TOURNAMENT if sheets is None else BackupScope.SHEETS
    header: dict[str, Any] = {
        "scope": scope.value,
        "created": now.isoformat(),
        "reason": reason,
        "tournament": _about(tournament),
    }
    if sheets is None:
        lines = _tournament_lines(tournament)
    else:
        sheets = sorted(set(sheets))
        knockout_matches = sorted(set(knockout_matches or []))
        header |= {"sheets": sheets, "knockout_matches": knockout_matches}
        lines = _sheets_lines(tournament, sheets, knockout_matches)
    written = file_write(header=header, lines=lines)
    backup = Backup.objects.create(
        tournament=tournament,
        slug=tournament.slug,
        scope=scope,
        sheets=sheets or [],
        reason=reason[:300],
        automatic=automatic,
        created_by=account(user),
        created_at=now,
        counts=written.counts,
        rows=written.rows,
        size=len(written.content),
        sha256=written.header["sha256"],
        content=b"",
    )
    content_store(backup, written.content)
    if automatic:
        _prune(tournament)
    return backup


def _prune(tournament: Tournament) -> None:
    """The newest BACKUPS_KEPT automatic backups of the tournament stay: one
    statement."""
    kept = (
        Backup.objects.filter(tournament=tournament, automatic=True)
        .order_by("-created_at", "-pk")
        .values("pk")[: settings.BACKUPS_KEPT]
    )
    raw_delete(
        Backup.objects.filter(tournament=tournament, automatic=True).exclude(
            pk__in=kept
        )
    )


def backup_before_step(
    *, tournament: Tournament, step: str, user=None
) -> Backup | None:
    """The automatic backup of the whole tournament before the draw or the seeding."""
    if not settings.BACKUP_AUTOMATIC:
        return None
    return backup_take(
        tournament=tournament,
        reason=f"before {step}",
        user=user,
        automatic=True,
    )


def sheet_scope(match) -> tuple[list[int], list[int]]:
    """What reopening `match` can change: the sheet itself, and in the knockout its
    knockout match, every later match its result plays on in, and all their games'
    sheets. Returns (sheets, knockout matches)."""
    if match.stage != "knockout":
        return [match.pk], []
    Game = model_of("brackets.game")
    KnockoutMatch = model_of("brackets.knockoutmatch")
    game = Game._base_manager.filter(sheet_id=match.pk).first()
    if game is None:
        return [match.pk], []
    found = {game.knockout_match_id}
    frontier = {game.knockout_match_id}
    while frontier:
        later = set(
            KnockoutMatch._base_manager.filter(from_a__in=frontier).values_list(
                "pk", flat=True
            )
        ) | set(
            KnockoutMatch._base_manager.filter(from_b__in=frontier).values_list(
                "pk", flat=True
            )
        )
        frontier = later - found
        found |= later
    sheets = set(
        Game._base_manager.filter(knockout_match__in=found).values_list(
            "sheet_id", flat=True
        )
    )
    return sorted(sheets | {match.pk}), sorted(found)


def backup_before_reopening(*, match, user=None) -> Backup | None:
    """The automatic backup of what reopening `match` can change (sheet_scope)."""
    if not settings.BACKUP_AUTOMATIC:
        return None
    sheets, knockout_matches = sheet_scope(match)
    return backup_take(
        tournament=match.tournament,
        reason=f"before reopening match {match.pk}",
        user=user,
        automatic=True,
        sheets=sheets,
        knockout_matches=knockout_matches,
    )


# Putting rows back
# ----------------------------------------------------------------------------------


def _people(archive: Archive, *, create: bool) -> dict[int, int]:
    """The file's people matched to this site's by username, in the form Django
    stores one (NFKC: a fullwidth "ｒｏｏｔ" is root); those missing are created
    without a password (they set one by a reset), held to the site's rules for a
    new username (docs/people.md, "Usernames"). One that is a person here but for
    letter case or width, or looks like one, is refused: which one is meant?"""
    User = get_user_model()
    named = {row["id"]: row["username"] for row in archive.rows(PEOPLE)}
    for name in named.values():
        if not isinstance(name, str) or not name or len(name) > 150:
            raise BackupRefused(
                filled(marked("%(name)r is not a username."), name=name)
            )
        try:
            User.username_validator(username_form(name))
        except ValidationError as error:
            if refusal := username_refusal(name):  # the rule, in the site's words
                raise BackupRefused(
                    filled(
                        marked("the person %(name)r of the file: %(rule)s"),
                        name=name,
                        rule=refusal.words,
                    )
                ) from error
            raise BackupRefused(
                filled(marked("%(name)r is not a username here."), name=name)
            ) from error
    named = {file_id: username_form(name) for file_id, name in named.items()}
    found = dict(
        User._base_manager.filter(username__in=named.values()).values_list(
            "username", "pk"
        )
    )
    missing = list(dict.fromkeys(n for n in named.values() if n not in found))
    if not missing:
        return {file_id: found[name] for file_id, name in named.items()}
    site = SiteUsernames()  # read once for every name
    for name in missing:
        clash = site.keys.get(username_key(name))
        if clash is not None:
            raise BackupRefused(
                filled(
                    marked(
                        "the person %(name)r of the file and %(username)r of this site "
                        "differ only by letter case; rename one of them first."
                    ),
                    name=name,
                    username=clash,
                )
            )
        if refused := username_refusals_of(name, site):
            raise BackupRefused(
                filled(
                    marked("the person %(name)r of the file: %(rule)s"),
                    name=name,
                    rule=refused[0].words,
                )
            )
        if create:
            found[name] = User.objects.create_user(username=name).pk
            site.add(name)
    return {file_id: found[name] for file_id, name in named.items() if name in found}


def _reserve(model: type[Model], count: int) -> list[int]:
    """`count` new ids of `model`'s table, reserved so no other writer takes them."""
    if count == 0:
        return []
    table_name = model._meta.db_table
    pk = model._meta.pk.column
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, %s)) "
                "FROM generate_series(1, %s)",
                [table_name, pk, count],
            )
            return sorted(row[0] for row in cursor.fetchall())
        quoted = connection.ops.quote_name(table_name)
        cursor.execute(
            f"SELECT COALESCE(MAX({connection.ops.quote_name(pk)}), 0) FROM {quoted}"  # noqa: S608 - our own table
        )
        start = cursor.fetchone()[0]
        cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table_name])
        row = cursor.fetchone()
        start = max(start, row[0] if row else 0)
    return list(range(start + 1, start + 1 + count))


class _Loader:
    """Rows of an archive into this database: ids kept (a restore) or new (an
    import), every reference checked to point inside the file, people by username.
    """

    def __init__(self, archive: Archive, *, fresh: bool, validate: bool) -> None:
        self.archive = archive
        self.fresh = fresh
        self.validate = validate
        self.ids: dict[str, dict[int, int]] = {}

    def plan(self, people: dict[int, int], tournament_id: int | None) -> None:
        """The id of every row here: its own, or a new one."""
        self.ids[PEOPLE] = people
        for label in LOAD_ORDER:
            _, rows = self.archive.tables.get(label, ([], []))
            old = [row[0] for row in rows]
            if len(set(old)) != len(old) or not all(
                isinstance(pk, int) and pk > 0 for pk in old
            ):
                raise BackupRefused(
                    filled(
                        marked("the ids of %(label)s in the file are not unique."),
                        label=label,
                    )
                )
            if label == "tournament.tournament" and tournament_id is not None:
                self.ids[label] = {pk: tournament_id for pk in old}
            elif self.fresh:
                new = _reserve(model_of(label), len(old))
                self.ids[label] = dict(zip(sorted(old), new, strict=True))
            else:
                self.ids[label] = {pk: pk for pk in old}

    def rows(self, label: str, **override) -> Rows:
        """The rows of `label`, checked column by column (rows.py): ids mapped,
        every reference pointing inside the file, times read, and (when
        validating) every other column held to its field's rules. `override`
        gives a column one value for every row."""
        model = model_of(label)
        _, rows = self.archive.tables.get(label, ([], []))
        fields = list(model._meta.concrete_fields)
        columns = [list(column) for column in zip(*rows, strict=True)] or [
            [] for _ in fields
        ]
        for at, f in enumerate(fields):
            if f.attname in override:
                columns[at] = [override[f.attname]] * len(rows)
        written = list(columns)  # the values as the file writes them (kept: each
        # column below is a new list)
        if self.validate:
            self._types_check(label, fields, written)
        refused: dict[int, str] = {}  # the first row each column refuses
        for at, f in enumerate(fields):
            if f.primary_key:
                columns[at] = [self.ids[label][pk] for pk in columns[at]]
                if self.validate:
                    index = range_clean(f, columns[at])
                    if index is not None:
                        refused[index] = f.name
            elif f.is_relation:
                columns[at] = self._mapped(label, f, columns[at])
            else:
                columns[at], index = column_clean(
                    f, columns[at], label, validate=self.validate
                )
                if index is not None:
                    refused[index] = f.name
        if refused:
            raise self._refused(label, fields, rows[min(refused)], override)
        if self.validate:
            self._api_check(label, fields, written)
        return Rows(model, fields, columns)

    @staticmethod
    def _types_check(label: str, fields: list[Field], columns: list[list]) -> None:
        """Each value of the JSON type its column is written in, before a field
        reads it: a text field reads a list as its text, a number field true as 1
        and "١" as 1, a date field fails on a list (api_rules.py)."""
        ids = columns[0] if columns else []
        for f, values in zip(fields, columns, strict=True):
            if not f.is_relation and (
                refusal := json_type_refusal(label, f, ids, values)
            ):
                raise refusal

    @staticmethod
    def _api_check(label: str, fields: list[Field], columns: list[list]) -> None:
        """The file's values as it writes them held to the API's own rules
        (api_rules.py), once their fields' rules hold."""
        ids = columns[0] if columns else []
        named = {f.attname: values for f, values in zip(fields, columns, strict=True)}
        if refusal := api_refusal(label, named, ids):
            raise refusal

    def _mapped(self, label: str, f: Field, values: list) -> list:
        """A reference column mapped to this site's ids; refused where a value
        names a row the file does not hold."""
        target = f.related_model._meta.label_lower
        ids = self.ids.get(target, {})
        mapped: list[int | None] = []
        for value in values:
            if value is None:
                mapped.append(None)
                continue
            try:
                new = ids.get(value)
            except TypeError:  # a list or an object where an id belongs
                new = None
            if new is None:
                raise BackupRefused(
                    filled(
                        marked(
                            "a row of %(label)s refers to %(target)s %(value)s, "
                            "which the file does not hold."
                        ),
                        label=label,
                        target=target,
                        value=value,
                    )
                )
            mapped.append(new)
        return mapped

    def _refused(
        self, label: str, fields: list[Field], row: list, override: dict
    ) -> BackupRefused:
        """The reason a row is refused, naming every field of it that fails."""
        values = {}
        for f, value in zip(fields, row, strict=True):
            if f.primary_key:
                value = self.ids[label][value]
            elif f.is_relation:
                value = None  # mapped and checked apart
            elif value is not None and f.get_internal_type() == "DateTimeField":
                value = aware(value, label)
            values[f.attname] = value
        return refused_row(model_of(label), {**values, **override}, label)

    def objects(self, label: str, **override) -> list[Model]:
        """The rows of `label` as instances, checked as `rows` checks them."""
        return self.rows(label, **override).objects()


def _raw_delete(label: str, **where) -> None:
    raw_delete(model_of(label)._base_manager.filter(**where))


def _tournament_delete_rows(tournament: Tournament) -> None:
    """Every row of the tournament but its own (which others, like its backups,
    refer to): raw deletes, children first, so no signal and no history guard runs;
    what they held is in the backup just taken."""
    everything = {**TOURNAMENT_PARTS, **BRACKET_PARTS}
    sheet_paths = {
        label: ("tournament" if path == "pk" else f"{path}__tournament")
        for label, path in SHEET_PARTS.items()
    }
    for label in reversed(LOAD_ORDER):
        if label == "tournament.tournament":
            continue
        path = sheet_paths.get(label) or everything[label]
        if label == "tournament.team":
            _raw_delete("tournament.seat", team__tournament=tournament.pk)
        _raw_delete(label, **{path: tournament.pk})
    _raw_delete("scoring.exportjob", tournament=tournament.pk)
    SheetCopy.objects.filter(tournament=tournament).delete()


TRUST = ("rated", "rated_by_id", "rated_at")


def _tournament_load(loader: _Loader, tournament: Tournament | None, slug: str) -> int:
    """The archive's rows in; the tournament row updated (a restore) or made (an
    import). Returns the tournament's id."""
    (row,) = loader.objects("tournament.tournament", slug=slug)
    if loader.validate and (refusal := status_refusal(loader.archive)):
        raise refusal  # a status the steps did not make: a finished league undrawn
    # Whether it counts for the ratings is the site's to say, never a file's
    # (docs/ratings.md, "What the site trusts"): a restore keeps it, an import
    # starts unrated.
    if tournament is not None:
        fields = [
            f.attname
            for f in Tournament._meta.concrete_fields
            if not f.primary_key and f.attname not in TRUST
        ]
        for name in fields:
            setattr(tournament, name, getattr(row, name))
        tournament.save(force_update=True)  # updated_at: now, so every ETag changes
    else:
        row.updated_at = timezone.now()
        row.rated, row.rated_by_id, row.rated_at = False, None, None
        site.insert_raw([row])
    for label in LOAD_ORDER[1:]:
        insert_raw(loader.rows(label))
    return row.pk


def _written(loader: _Loader, labels: list[str]) -> Written:
    """This site's ids of the rows `loader` wrote of these tables (for the upgrades
    done once a file of an earlier release is loaded)."""
    return Written(
        {
            label: sorted(
                loader.ids[label][row[0]]
                for row in loader.archive.tables.get(label, ([], []))[1]
            )
            for label in labels
        }
    )


def _check_constraints() -> None:
    tables = [model_of(label)._meta.db_table for label in LOAD_ORDER]
    connection.check_constraints(table_names=tables)


def backup_content(backup: Backup) -> bytes:
    (content,) = next(
        iter(binary_rows(Backup.objects.filter(pk=backup.pk).values_list("content")))
    )
    return content


@transaction.atomic
def backup_restore(
    *,
    tournament: Tournament,
    content: bytes,
    user=None,
    trusted: bool = False,
    setting: str = "BACKUP_MAX_BYTES",
) -> tuple[Archive, Backup]:
    """Make the tournament, or the sheets of a sheets backup, what `content` holds.
    The rest of the site is not touched. Returns (the archive restored, the backup
    taken first of what it replaced). Nothing changes if anything is refused.
    `setting` names the most the file may inflate to (archive.file_read)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    archive = file_read(content, setting=setting)
    archive_bring_forward(archive)
    about = archive.header.get("tournament") or {}
    if about.get("slug") != tournament.slug:
        raise BackupRefused(
            filled(
                marked(
                    "it is a backup of %(slug)r, not of %(here)r; import it as a "
                    "tournament of its own instead."
                ),
                slug=about.get("slug"),
                here=tournament.slug,
            )
        )
    if archive.header.get("scope") == BackupScope.SHEETS:
        return archive, _sheets_restore(tournament, archive, user, trusted)
    if archive.header.get("scope") != BackupScope.TOURNAMENT:
        raise BackupRefused(
            filled(
                marked("its scope %(scope)r is unknown."),
                scope=archive.header.get("scope"),
            )
        )
    safety = backup_take(
        tournament=tournament,
        reason=f"before restoring the backup of {archive.header.get('created')}",
        user=user,
        automatic=True,
    )
    held = seats_held(tournament=tournament)
    was_counted = tournament.published and tournament.rated
    _tournament_delete_rows(tournament)
    loader = _Loader(archive, fresh=False, validate=not trusted)
    loader.plan(_people(archive, create=True), tournament.pk)
    try:
        with transaction.atomic():
            _tournament_load(loader, tournament, tournament.slug)
            _check_constraints()
            # Its players find their people again, each the one they had (a site
            # administrator's split holds), else by name and city (docs/ratings.md).
            seats_sync(tournament=tournament, prefer=held)
            if was_counted or (tournament.published and tournament.rated):
                ratings_stale.send(sender=Tournament)
            archive.state.loaded(_written(loader, LOAD_ORDER))
    except IntegrityError as error:
        raise BackupRefused(
            filled(marked("its rows do not fit this site: %(error)s"), error=error)
        ) from error
    return archive, safety


def _sheets_restore(
    tournament: Tournament, archive: Archive, user, trusted: bool
) -> Backup:
    """A sheets backup back in place: those sheets (and their knockout matches'
    games) as they were, each with a new version and a history row that says so."""
    Match = model_of("scoring.match")
    Game = model_of("brackets.game")
    sheets = archive.header.get("sheets") or []
    knockout_matches = archive.header.get("knockout_matches") or []
    for row in archive.rows("scoring.match"):
        if row["tournament_id"] != tournament.pk or row["id"] not in sheets:
            raise BackupRefused(marked("it holds a sheet of another tournament."))
    now_games = list(
        Game._base_manager.filter(knockout_match__in=knockout_matches).values_list(
            "sheet_id", flat=True
        )
    )
    replaced = sorted(set(sheets) | set(now_games))
    versions = dict(
        Match._base_manager.select_for_update()
        .filter(pk__in=replaced, tournament=tournament)
        .values_list("pk", "version")
    )
    safety = backup_take(
        tournament=tournament,
        reason=f"before restoring the backup of {archive.header.get('created')}",
        user=user,
        automatic=True,
        sheets=replaced,
        knockout_matches=knockout_matches,
    )
    _raw_delete("brackets.game", knockout_match__in=knockout_matches)
    _raw_delete("scoring.penalty", deal__match__in=replaced)
    _raw_delete("scoring.deal", match__in=replaced)
    _raw_delete("scoring.matchtally", match__in=replaced)
    _raw_delete("scoring.sheetchange", match__in=replaced)
    _raw_delete("scoring.dispute", match__in=replaced)
    _raw_delete("scoring.match", pk__in=replaced)
    SheetCopy.objects.filter(sheet__in=replaced).delete()
    loader = _Loader(archive, fresh=False, validate=not trusted)
    people = _people(archive, create=True)
    loader.plan(people, None)
    # The tournament and the teams the rows name are this site's own.
    loader.ids["tournament.tournament"] = {tournament.pk: tournament.pk}
    Team = model_of("tournament.team")
    loader.ids["tournament.team"] = {
        pk: pk
        for pk in Team._base_manager.filter(tournament=tournament).values_list(
            "pk", flat=True
        )
    }
    KnockoutMatch = model_of("brackets.knockoutmatch")
    in_bracket = set(
        KnockoutMatch._base_manager.filter(bracket__tournament=tournament).values_list(
            "pk", flat=True
        )
    )
    if not set(knockout_matches) <= in_bracket:
        raise BackupRefused(marked("it holds a knockout match of another tournament."))
    loader.ids["brackets.knockoutmatch"] = {pk: pk for pk in in_bracket}
    Bracket = model_of("brackets.bracket")
    loader.ids["brackets.bracket"] = {
        pk: pk
        for pk in Bracket._base_manager.filter(tournament=tournament).values_list(
            "pk", flat=True
        )
    }
    try:
        with transaction.atomic():
            for label in SHEET_PARTS:
                insert_raw(loader.rows(label))
            for later in loader.objects("brackets.knockoutmatch"):
                fields = [
                    f.attname
                    for f in KnockoutMatch._meta.concrete_fields
                    if not f.primary_key
                ]
                KnockoutMatch._base_manager.filter(pk=later.pk).update(
                    **{name: getattr(later, name) for name in fields}
                )
            insert_raw(loader.rows("brackets.game"))
            _check_constraints()
            archive.state.loaded(_written(loader, [*SHEET_PARTS, "brackets.game"]))
    except IntegrityError as error:
        raise BackupRefused(
            filled(marked("its rows do not fit this site: %(error)s"), error=error)
        ) from error
    status = (archive.header.get("tournament") or {}).get("status")
    if status and status != tournament.status and knockout_matches:
        tournament.status = status
        tournament.save(update_fields=["status", "updated_at"])
    _history_restored(archive, versions, user, safety)
    if tournament.published and tournament.rated:
        ratings_stale.send(sender=Tournament)
    return safety


def _history_restored(archive: Archive, versions: dict[int, int], user, safety) -> None:
    """Each sheet put back gets a version above any it had, so that a scorer who
    saw it before is told it changed, and a history row that names both backups."""
    Match = model_of("scoring.match")
    SheetChange = model_of("scoring.sheetchange")
    from_name = user.get_username() if getattr(user, "is_authenticated", False) else ""
    for row in archive.rows("scoring.match"):
        version = max(versions.get(row["id"], 0), row["version"]) + 1
        Match._base_manager.filter(pk=row["id"]).update(version=version)
        SheetChange.objects.create(
            match_id=row["id"],
            version=version,
            action="restore",
            actor=account(user),
            actor_name=from_name or "site",
            after={"version": row["version"], "status": row["status"]},
            reason=(
                f"restored from the backup of {archive.header.get('created')} "
                f"({archive.header.get('reason')}); what it replaced is in backup "
                f"{safety.pk}"
            ),
        )


@transaction.atomic
def tournament_import(
    *,
    content: bytes,
    user=None,
    slug: str | None = None,
    setting: str = "BACKUP_MAX_BYTES",
) -> Tournament:
    """A tournament's backup as a new tournament of this site: every row with a new
    id, people matched by username or created without a password. Refused, with
    the reason, where its slug or a person's name clashes. The tournament comes
    with `file_state` (upgrades.FileState): who wrote the file, and whether it was
    brought forward from an earlier release."""
    archive = file_read(content, setting=setting)
    archive_bring_forward(archive)
    if archive.header.get("scope") != BackupScope.TOURNAMENT:
        raise BackupRefused(
            marked(
                "it is a backup of some sheets, not of a whole tournament; only a "
                "tournament's backup is imported."
            )
        )
    (row,) = archive.rows("tournament.tournament") or [None]
    if row is None:
        raise BackupRefused(marked("it holds no tournament."))
    slug = slug or row["slug"]
    if Tournament.objects.filter(slug=slug).exists():
        raise BackupRefused(
            filled(
                marked(
                    "this site has a tournament %(slug)r already; import it under "
                    "another"
                    " slug."
                ),
                slug=slug,
            )
        )
    loader = _Loader(archive, fresh=True, validate=True)
    loader.plan(_people(archive, create=True), None)
    try:
        with transaction.atomic():
            pk = _tournament_load(loader, None, slug)
            _check_constraints()
            # Unrated (above): its sheets move no rating, so nothing is rebuilt.
            seats_sync(tournament=Tournament.objects.get(pk=pk))
            archive.state.loaded(_written(loader, LOAD_ORDER))
    except IntegrityError as error:
        raise BackupRefused(
            filled(marked("its rows do not fit this site: %(error)s"), error=error)
        ) from error
    tournament = Tournament.objects.get(pk=pk)
    if user is not None and getattr(user, "is_authenticated", False):
        Membership = model_of("tournament.membership")
        Membership.objects.get_or_create(
            tournament=tournament, user=user, role=Role.ORGANIZER
        )
    tournament.file_state = archive.state
    return tournament
