"""`make restore-drill`: in the PostgreSQL pass, the test database is dumped with
pg_dump -Fc, restored into a scratch database and compared table by table; on SQLite
the drill says it is PostgreSQL's and what to do instead."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from tests.brackets.knockout import final_league


@pytest.mark.django_db(transaction=True)
def test_the_restore_drill_restores_every_table_as_dumped(tmp_path):
    final_league(2, 3, qualifiers=2, slug="drill-cup")
    if connection.vendor != "postgresql":
        with pytest.raises(CommandError, match="for PostgreSQL"):
            call_command("restore_drill")
        return
    out = StringIO()
    kept = tmp_path / "drill.dump"
    call_command("restore_drill", keep=kept, stdout=out)
    assert "Restore drill passed" in out.getvalue()
    assert "scoring.deal" not in out.getvalue()  # tables by their names
    assert kept.stat().st_mode & 0o777 == 0o600
    assert kept.read_bytes()[:5] == b"PGDMP"  # pg_dump's custom format
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT datname FROM pg_database WHERE datname LIKE %s", ["%_drill_%"]
        )
        assert cursor.fetchall() == []  # the scratch database is gone
