"""The ORM's bypasses and Django's private APIs live in tournament/db/raw.py alone,
each with its measured reason (issue 54), and go through Django's error wrapping: a
database lost during a backup's binary copy is Django's OperationalError (503), not
the driver's (500). Read from the source with ast, as tests/test_layers.py reads
imports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APPS = ("tournament", "scoring", "brackets")
ALLOWED = ROOT / "tournament" / "db" / "raw.py"
PRIVATE = {
    "_raw_delete",
    "_prepare_cursor",
    "_has_been_logged",
    "_insert",
    "from_db",
    "_declared_fields",  # DRF's
    "_request",  # DRF's
    "_perm_cache",
    "_user_perm_cache",
    "_group_perm_cache",
    "sql_with_params",
}
DRIVER_CURSORS = {"Cursor", "ClientCursor", "ServerCursor", "AsyncCursor"}


def _bypasses(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Attribute):
            if node.attr in PRIVATE:
                found.append(f"{path}:{node.lineno} .{node.attr}")
            elif (
                isinstance(node.value, ast.Name)
                and node.value.id == "connection"
                and node.attr.startswith("_")
            ):
                found.append(f"{path}:{node.lineno} connection.{node.attr}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            func = node.func
            if (
                isinstance(func.value, ast.Name)
                and func.value.id == "psycopg"
                and func.attr in DRIVER_CURSORS
            ):
                found.append(f"{path}:{node.lineno} psycopg.{func.attr}(...)")
            if (
                func.attr == "cursor"
                and isinstance(func.value, ast.Attribute)
                and func.value.attr == "connection"
            ):
                found.append(f"{path}:{node.lineno} .connection.cursor()")
    return found


def test_bypasses_only_in_the_raw_module():
    found = [
        hit
        for app in APPS
        for path in sorted((ROOT / app).rglob("*.py"))
        if path != ALLOWED and "migrations" not in path.parts
        for hit in _bypasses(path)
    ]
    assert found == []


def test_the_check_sees_a_bypass(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "qs._raw_delete(qs.db)\nconnection._prepare_cursor(c)\n"
        "r._has_been_logged = True\nM.from_db(db, n, v)\npsycopg.Cursor(raw)\n"
        "wrapper.connection.cursor()\nSerializer._declared_fields['in'] = f\n"
    )
    assert len(_bypasses(sample)) == 7


@pytest.mark.django_db
def test_a_database_lost_during_the_binary_copy_is_djangos_error(monkeypatch):
    """The automatic backup's binary copy (backups/binary.py) on PostgreSQL: the
    driver's cursor raising psycopg's OperationalError (the server gone) surfaces as
    Django's, which unavailable.py answers with 503."""
    from django.db import OperationalError, connection

    if connection.vendor != "postgresql":
        pytest.skip("the binary copy is PostgreSQL's; SQLite's goes through the ORM")
    import psycopg

    from tournament.backups import binary
    from tournament.models import Backup

    class Lost(psycopg.Cursor):
        def execute(self, *args, **kwargs):
            raise psycopg.OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(psycopg, "Cursor", Lost)
    with pytest.raises(OperationalError) as raised:
        binary.content_store(Backup(pk=1), b"content")
    assert isinstance(raised.value.__cause__, psycopg.OperationalError)
    with pytest.raises(OperationalError):
        list(binary.binary_rows(Backup.objects.values_list("pk", "content")))
