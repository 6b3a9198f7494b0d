"""The per-address reset limit counts an address as the account lookup finds it
(issue 51, "Unicode tricks"): Django's PasswordResetForm finds scorera@…'s account
for "ſcorera@…" (a long s: NFKC and casefolded, `_unicode_ci_compare`), so the
throttle counts the two as one address, and no variant buys mails beyond the limit."""

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client

from tests.factories import UserFactory
from tournament.models import PasswordResetRequest

pytestmark = pytest.mark.django_db
RESET = "/accounts/password/reset/"
# Each is scorera@example.org to the account lookup; EmailField takes each (Python's
# re matches "ſ" and the Kelvin sign "K" to s and k ignoring case).
VARIANTS = [
    "scorera@example.org",
    "ſcorera@example.org",
    "SCORERA@example.org",
    "ſCORERA@Example.org",
    "scorera@example.org ",
    "ſcorera@EXAMPLE.ORG",
]


def test_variants_of_one_address_share_its_limit():
    user = UserFactory(username="scorera")
    user.email = "scorera@example.org"
    user.save()
    limit = settings.PASSWORD_RESET_PER_ADDRESS
    answers = [
        # From as many clients: the address's own limit holds whoever asks.
        Client(REMOTE_ADDR=f"203.0.113.{n + 1}").post(RESET, {"email": address})
        for n, address in enumerate(VARIANTS)
    ]
    assert [a.status_code for a in answers] == [302] * limit + [429] * (
        len(VARIANTS) - limit
    )
    assert PasswordResetRequest.objects.filter(sent=True).count() == limit
    assert PasswordResetRequest.objects.values("address_digest").distinct().count() == 1
    assert len(mail.outbox) <= limit  # the lookup finds no more than the throttle lets


def test_another_address_is_counted_apart():
    client = Client(REMOTE_ADDR="198.51.100.20")
    for _ in range(settings.PASSWORD_RESET_PER_ADDRESS):
        assert client.post(RESET, {"email": "ſcorera@example.org"}).status_code == 302
    other = Client(REMOTE_ADDR="198.51.100.21")
    assert other.post(RESET, {"email": "scorerb@example.org"}).status_code == 302
