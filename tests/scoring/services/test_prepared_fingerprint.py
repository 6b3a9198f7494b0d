"""The standings' fingerprint, the query of every spectator's poll, is planned once
per connection on PostgreSQL (tournament/db/prepared.py) and says exactly what the same
query says unprepared; on SQLite it is an ordinary query."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.sheets import fingerprints as selectors
from tests.brackets.knockout import final_league
from tournament.db.prepared import prepared_row


def _prepared_fingerprints() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
            ["%SUM(id * CASE status%"],
        )
        return cursor.fetchone()[0]


@pytest.mark.django_db
def test_the_fingerprint_is_prepared_once_and_reads_as_unprepared():
    tournament, _ = final_league(2, 3, qualifiers=2, slug="prepared-cup")
    sql = (
        "SELECT COUNT(*), SUM(version), MAX(%(x)s) FROM scoring_match"
        " WHERE tournament_id = %(t)s"
    )
    params = {"t": tournament.pk, "x": 7}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        plain = cursor.fetchone()
    assert prepared_row(sql, params) == plain
    first = selectors.standings_fingerprint(tournament=tournament)
    with CaptureQueriesContext(connection) as queries:
        again = selectors.standings_fingerprint(tournament=tournament)
    assert again == first
    assert len(queries) == 1  # seen by the tests' query counts as any query
    if connection.vendor == "postgresql":
        assert _prepared_fingerprints() == 1  # planned once for this connection
        # Nothing else of the site is prepared.
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_prepared_statements")
            assert cursor.fetchone()[0] == 2  # the fingerprint and the test's own
