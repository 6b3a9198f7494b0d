"""A session's write to the API without its current CSRF token, and a table link's
key beside someone's session in the same browser (docs/security.md, docs/links.md)."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.models import Deal
from tests.factories import UserFactory, member
from tests.scoring.league import link_key, tables_in_play
from tournament.domain.types import Role

pytestmark = pytest.mark.django_db

DEAL = {"number": 1, "declarer": "A", "value": 40, "trump": "clubs", "taken": 44}


def test_a_session_write_without_its_token_is_refused_with_the_code_csrf_failed():
    tournament, _, _, (match,) = tables_in_play("csrf-api", tables=1, deals=4)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(member(tournament, Role.SCORER))
    answer = browser.post(
        f"/api/v1/matches/{match.pk}/deals/",
        {**DEAL, "version": match.version},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="csrf-api-1",
    )
    assert answer.status_code == 403
    assert answer.json()["code"] == "csrf_failed"
    assert not Deal.objects.filter(match=match).exists()


def test_a_table_links_key_writes_even_beside_someone_elses_session():
    """A table's page open while someone signed in in another tab: its queue sends
    the link's key, and the link writes, not the session (which may score nothing)."""
    tournament, _, _, (match,) = tables_in_play("csrf-link", tables=1, deals=4)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(UserFactory())  # no role in this tournament
    answer = browser.post(
        f"/api/v1/matches/{match.pk}/deals/",
        {**DEAL, "version": match.version},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Link {link_key(tournament, table=1)}",
        HTTP_IDEMPOTENCY_KEY="csrf-link-1",
    )
    assert answer.status_code == 201, answer.content
    assert Deal.objects.filter(match=match).count() == 1
