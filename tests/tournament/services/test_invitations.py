"""The one invitation flow (tournament/accounts/invitations.py), held to the same
rules for both kinds it serves: a tournament's role and the site's standing. Each
test runs for both, through their services, so a rule written once is seen to hold
for each."""

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.factories import TournamentFactory, UserFactory
from tournament.accounts import services
from tournament.accounts.invitations import (
    INVITATION_DAYS_MAX,
    link_digest,
    link_state,
)
from tournament.accounts.selectors import invitation_get, site_invitation_get
from tournament.domain.errors import ConflictError, RuleError

pytestmark = pytest.mark.django_db
STRONG = "Kerala-Cards-2026"


@dataclass
class Kind:
    create: Any
    accept: Any
    withdraw: Any
    get: Any


def _tournament_kind() -> Kind:
    tournament = TournamentFactory()
    return Kind(
        create=lambda **kw: services.invitation_create(
            tournament=tournament, role="scorer", **kw
        ),
        accept=services.invitation_accept,
        withdraw=services.invitation_withdraw,
        get=invitation_get,
    )


def _site_kind() -> Kind:
    return Kind(
        create=lambda **kw: services.site_invitation_create(role="creator", **kw),
        accept=services.site_invitation_accept,
        withdraw=services.site_invitation_withdraw,
        get=site_invitation_get,
    )


@pytest.fixture(params=["tournament", "site"])
def kind(request) -> Kind:
    return _tournament_kind() if request.param == "tournament" else _site_kind()


def test_a_link_keeps_only_its_keys_digest_and_works_for_the_days_given(kind):
    maker = UserFactory()
    made = kind.create(user=maker, name=" Bindu ", email=" b@example.org ", days=3)
    row = made.invitation
    assert row.key_digest == link_digest(made.key) != made.key
    assert len(made.key) >= 40
    assert (row.name, row.email, row.created_by) == ("Bindu", "b@example.org", maker)
    assert timedelta(days=3) - (row.expires_at - timezone.now()) < timedelta(minutes=1)
    assert link_state(row) == "waiting"
    assert kind.get(key=made.key) == row
    assert kind.get(key=made.key + "x") is None


@pytest.mark.parametrize("days", [0, INVITATION_DAYS_MAX + 1])
def test_days_out_of_range_are_refused(kind, days):
    with pytest.raises(RuleError) as refused:
        kind.create(user=UserFactory(), days=days)
    assert refused.value.code == "out_of_range" and refused.value.field == "days"


def test_a_link_is_accepted_once_by_a_new_user(kind):
    made = kind.create(user=UserFactory())
    kind.accept(key=made.key, username="bindu", password=STRONG)
    row = kind.get(key=made.key)
    assert row.accepted_by.username == "bindu" and link_state(row) == "accepted"
    with pytest.raises(ConflictError) as again:
        kind.accept(key=made.key, username="latha", password=STRONG)
    assert again.value.code == "invitation_used"


def test_a_new_users_weak_password_is_refused_and_the_link_still_works(kind):
    made = kind.create(user=UserFactory())
    with pytest.raises(RuleError) as refused:
        kind.accept(key=made.key, username="bindu", password="123")
    said = getattr(refused.value, "errors", [refused.value])
    assert {e.code for e in said} == {"weak_password"}
    assert link_state(kind.get(key=made.key)) == "waiting"


def test_a_signed_in_user_accepts_without_a_new_account(kind):
    made = kind.create(user=UserFactory())
    holder = UserFactory()
    kind.accept(key=made.key, user=holder)
    assert kind.get(key=made.key).accepted_by == holder


def test_a_withdrawn_link_is_refused_and_withdrawing_twice_is_once(kind):
    maker = UserFactory()
    made = kind.create(user=maker)
    first = kind.withdraw(invitation=made.invitation, user=maker)
    second = kind.withdraw(invitation=made.invitation, user=maker)
    assert first.withdrawn_at == second.withdrawn_at is not None
    assert link_state(second) == "withdrawn"
    with pytest.raises(ConflictError) as refused:
        kind.accept(key=made.key, username="bindu", password=STRONG)
    assert refused.value.code == "invitation_withdrawn"


def test_an_accepted_link_cannot_be_withdrawn(kind):
    maker = UserFactory()
    made = kind.create(user=maker)
    kind.accept(key=made.key, username="bindu", password=STRONG)
    with pytest.raises(ConflictError) as refused:
        kind.withdraw(invitation=made.invitation, user=maker)
    assert refused.value.code == "invitation_used"


def test_an_expired_link_is_refused_and_says_when(kind):
    made = kind.create(user=UserFactory())
    row = made.invitation
    type(row).objects.filter(pk=row.pk).update(
        created_at=timezone.now() - timedelta(days=3),
        expires_at=timezone.now() - timedelta(days=1),
    )
    assert link_state(kind.get(key=made.key)) == "expired"
    with pytest.raises(ConflictError) as refused:
        kind.accept(key=made.key, username="bindu", password=STRONG)
    assert refused.value.code == "invitation_expired"
    assert "expired_on" in refused.value.params


def test_an_unknown_key_is_refused(kind):
    with pytest.raises(RuleError) as refused:
        kind.accept(key="not-a-key", username="bindu", password=STRONG)
    assert refused.value.code == "invitation_unknown"
