"""The score-sheet fixtures, for the site-wide security tests, and an account with
an e-mail address, for the password reset's."""

import pytest

from tests.factories import UserFactory
from tests.scoring.conftest import away_captain, away_team, match  # noqa: F401


@pytest.fixture
def owner(db):
    """A user "owner" whose address is owner@example.org."""
    user = UserFactory(username="owner")
    user.email = "owner@example.org"
    user.save()
    return user
