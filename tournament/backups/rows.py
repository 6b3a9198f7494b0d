"""An archive's rows on their way into the database, one model at a time: every
column checked as a whole against its field's rules, then written in bulk
(services.py's restore and import; docs/backups.md).

A file's rows are checked as `Model.clean_fields` checks one instance, field by
field (the type, its length or range, its choices, null and blank; references are
mapped, and the database's constraints hold them), but column by column: a column
holds few distinct values (a deal's declarer, trump and level; a team's status),
and each distinct value is cleaned once. A refused row is then cleaned again as an
instance, so that the reason names the row's fields and rules as it always did.

The rows are then inserted as they are, ids and all (the raw insert of loaddata: no
save() runs, and a time written once keeps its value), each value prepared by its
field for this database, by the database's bulk path: COPY on PostgreSQL, one
prepared INSERT run for every row on SQLite. Not `bulk_create`: it runs each
field's pre_save (an `auto_now` time would become the import's), and it compiles
every value of every row into SQL one by one, which was most of an import's time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Field, Model
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from tournament.db.bulk import rows_insert

from ..domain.errors import filled, marked
from .archive import BackupRefused

# Values of these exact types are cleaned (and prepared) once per distinct value.
_KEPT = frozenset({str, int, bool, type(None)})
_MISSING = object()


@dataclass
class Rows:
    """One model's rows, checked: a list of values per concrete field, in order."""

    model: type[Model]
    fields: list[Field]
    columns: list[list[Any]]

    def __len__(self) -> int:
        return len(self.columns[0]) if self.columns else 0

    def objects(self) -> list[Model]:
        """The rows as instances (for the few rows saved one by one)."""
        names = [f.attname for f in self.fields]
        return [
            self.model(**dict(zip(names, row, strict=True)))
            for row in zip(*self.columns, strict=True)
        ]


def aware(value: Any, label: str) -> datetime:
    """A time of the file as an aware datetime (SQLite keeps UTC without saying so)."""
    moment = parse_datetime(value) if isinstance(value, str) else None
    if moment is None:
        raise BackupRefused(
            filled(
                marked("a time in %(label)s is not a time: %(value)r."),
                label=label,
                value=value,
            )
        )
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, timezone.utc)
    return moment


def _each_distinct(convert: Callable[[Any], Any], values: list) -> list:
    """`convert` of every value, computed once per distinct value of a kept type."""
    done: dict[tuple[type, Any], Any] = {}
    out = []
    append = out.append
    for value in values:
        kind = value.__class__
        if kind in _KEPT:
            key = (kind, value)
            hit = done.get(key, _MISSING)
            if hit is _MISSING:
                hit = done[key] = convert(value)
            append(hit)
        else:
            append(convert(value))
    return out


def column_clean(
    field: Field, values: list, label: str, *, validate: bool
) -> tuple[list, int | None]:
    """The column's values as `clean_fields` leaves them (times made aware first,
    then `field.clean` unless blank and empty), and the index of the first value it
    refuses (None if none). Without `validate`, only the times are read."""
    times = field.get_internal_type() == "DateTimeField"
    if not times and not validate:
        return values, None
    blank, empty = field.blank, field.empty_values

    def clean(value):
        if times and value is not None:
            value = aware(value, label)
        if not validate or (blank and value in empty):
            return value
        return field.clean(value, None)

    try:
        return _each_distinct(clean, values), None
    except ValidationError:
        for index, value in enumerate(values):  # which row: read again, in order
            try:
                clean(value)
            except ValidationError:
                return [], index
        raise


def range_clean(field: Field, values: list[int]) -> int | None:
    """Ids (whole numbers, checked so by the loader's plan) against their field's
    rules: its validators are a range, so the least and the greatest decide. The
    index of the first id refused, or None."""
    if not values:
        return None
    try:
        field.clean(min(values), None)
        field.clean(max(values), None)
    except ValidationError:
        for index, value in enumerate(values):
            try:
                field.clean(value, None)
            except ValidationError:
                return index
        raise
    return None


def refused_row(model: type[Model], row: dict[str, Any], label: str) -> BackupRefused:
    """Why `row` (attribute names to values; references left out) is refused: the
    message names each of its fields that fails and the rule it breaks."""
    instance = model(**row)
    try:
        instance.clean_fields(
            exclude=[f.name for f in model._meta.concrete_fields if f.is_relation]
        )
    except ValidationError as error:
        return BackupRefused(
            filled(
                marked("a row of %(label)s is not valid here: %(message_dict)s"),
                label=label,
                message_dict=error.message_dict,
            )
        )
    raise AssertionError(f"a row of {label} refused by its column, not by its fields")


# The model fields whose column holds a whole number (api_rules.py reads it too).
WHOLE_NUMBER_FIELDS = frozenset(
    {
        "AutoField",
        "BigAutoField",
        "SmallAutoField",
        "IntegerField",
        "BigIntegerField",
        "SmallIntegerField",
        "PositiveIntegerField",
        "PositiveBigIntegerField",
        "PositiveSmallIntegerField",
    }
)


def _kind(field: Field) -> str:
    """The field's kind, or for a reference the kind of the column it refers to."""
    target = field.target_field if field.is_relation else field
    return target.get_internal_type()


def _prepared(field: Field, values: list) -> list:
    """The column's values as the field prepares them for this database
    (`get_db_prep_save`, what Django's own INSERT sends), once per distinct value.
    Two kinds skip the field's steps that leave them as they are: a whole number of
    an integer column (`int(value)` is itself) and an aware time (the field only
    checks it is aware, then the database's adapter writes it)."""
    wrapper = transaction.get_connection()  # not the proxy: it is read per value
    kind = _kind(field)
    if kind in WHOLE_NUMBER_FIELDS and all(
        v.__class__ is int or v is None for v in values
    ):
        return values
    if kind == "DateTimeField" and all(
        v is None or (v.__class__ is datetime and v.utcoffset() is not None)
        for v in values
    ):
        adapt = wrapper.ops.adapt_datetimefield_value
        return [None if v is None else adapt(v) for v in values]
    prepare = field.get_db_prep_save
    return _each_distinct(lambda value: prepare(value, connection=wrapper), values)


def records(rows: Rows) -> list[tuple]:
    """The rows as the database takes them: one tuple per row, each value as its
    field prepares it."""
    return list(
        zip(
            *(_prepared(f, c) for f, c in zip(rows.fields, rows.columns, strict=True)),
            strict=True,
        )
    )


def insert_raw(rows: Rows) -> None:
    """The rows as they are, ids and all: their values as each field prepares them
    for this database, written by the database's bulk path (`write`). No save()
    runs, so a time written once (a history row's, `auto_now`'s) keeps its
    value."""
    if len(rows):
        write(rows.model, rows.fields, records(rows))


def write(model: type[Model], fields: list[Field], prepared: list[tuple]) -> None:
    """Prepared rows of `model` into its table, every field's column (ids and all):
    the database's bulk path (tournament/db/bulk.py), COPY on PostgreSQL. COPY keeps
    every constraint: checks and unique indexes at once, references at the
    transaction's check (services._check_constraints)."""
    if not prepared:
        return
    if fields != list(model._meta.local_concrete_fields):
        raise AssertionError(f"{model.__name__}: inherited fields")
    rows_insert(model, [f.column for f in fields], prepared)
