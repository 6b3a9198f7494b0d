"""Seeding asks the database as often for a bracket of 8 first-round sheets as for
one of 4: the sheets are set up together (scoring/sheets/services.py:
matches_create), each row checked without asking again for the tournament and teams
read above it; the automatic backup before it reads the league's sheets together."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext, override_settings

from brackets import services as knockout
from brackets.models import Bracket
from scoring.league.services import standings_lots_draw
from scoring.models import Match
from tests.brackets.knockout import final_league
from tournament.models import Backup

pytestmark = pytest.mark.django_db

# As Django counts them. Without the backup: the checks, the standings, the bracket,
# its four rounds of knockout matches, the first round's sheets, their history and
# their games, and the transaction's savepoints (42 and 54 when each sheet asked
# again for its tournament and teams). The backup adds its reads, by table, of the
# tournament and of its sheets (none has a copy kept here: the tests' transaction
# never commits), the copies it keeps and its row; on PostgreSQL its two binary
# statements and the fetches of its server-side cursors are not counted.
QUERIES = 30
QUERIES_WITH_BACKUP = {"sqlite": 60, "postgresql": 58}


def _seeding_queries(tournament, organizer, qualifiers: int) -> tuple[int, int]:
    """(queries, first-round sheets) of seeding `qualifiers`, rolled back."""
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        knockout.knockout_seed(
            tournament=tournament, user=organizer, qualifiers=qualifiers
        )
        counted = len(queries.captured_queries)
        sheets = Match.objects.filter(tournament=tournament, stage="knockout").count()
        transaction.set_rollback(True)
    return counted, sheets


@pytest.mark.parametrize("automatic", [False, True])
def test_seeding_takes_as_many_queries_for_8_first_sheets_as_for_4(automatic):
    tournament, organizer = final_league(2, 13, qualifiers=20)
    standings_lots_draw(tournament=tournament, user=organizer, seed=7)
    backups = Backup.objects.count()
    with override_settings(BACKUP_AUTOMATIC=automatic):
        # Both a bracket of 16 (four rounds); the first round 4 sheets, then 8.
        few, four_sheets = _seeding_queries(tournament, organizer, 9)
        many, eight_sheets = _seeding_queries(tournament, organizer, 16)
    assert (four_sheets, eight_sheets) == (4, 8)
    expected = QUERIES_WITH_BACKUP[connection.vendor] if automatic else QUERIES
    assert few == many == expected, (few, many)
    assert not Bracket.objects.exists()
    assert Backup.objects.count() == backups  # rolled back with the seeding
