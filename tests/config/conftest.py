"""The score-sheet fixtures, for the site-wide security tests."""

from tests.scoring.conftest import away_captain, away_team, match  # noqa: F401
