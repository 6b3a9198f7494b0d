"""Password resets are throttled per address and per client, as logins are (issue 41):
twenty requests for one address send at most the limit of mails, and the page beyond
it says so in the visitor's language; the count is the database's, shared by every
web worker."""

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client, override_settings

from tournament.models import PasswordResetRequest

pytestmark = pytest.mark.django_db
RESET = "/accounts/password/reset/"


def test_twenty_requests_for_one_address_send_at_most_the_limit(owner):
    limit = settings.PASSWORD_RESET_PER_ADDRESS
    answers = []
    for n in range(20):
        # From twenty clients: the address's own limit holds whoever asks.
        client = Client(REMOTE_ADDR=f"203.0.113.{n + 1}")
        answers.append(client.post(RESET, {"email": "OWNER@example.org"}))
    assert len(mail.outbox) == limit
    assert [a.status_code for a in answers[:limit]] == [302] * limit
    refused = answers[limit]
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) == settings.PASSWORD_RESET_WINDOW.seconds
    page = refused.content.decode()
    assert "Too many password reset links were asked" in page
    assert "no mail was sent now" in page
    assert PasswordResetRequest.objects.filter(sent=True).count() == limit
    # The address is kept as a digest only.
    assert not PasswordResetRequest.objects.filter(
        address_digest__icontains="owner"
    ).exists()


def test_one_client_is_limited_whatever_the_addresses(owner):
    client = Client(REMOTE_ADDR="198.51.100.7")
    limit = settings.PASSWORD_RESET_PER_CLIENT
    for n in range(limit):
        assert (
            client.post(RESET, {"email": f"someone{n}@example.org"}).status_code == 302
        )
    assert client.post(RESET, {"email": "owner@example.org"}).status_code == 429
    assert len(mail.outbox) == 0
    # Another client is served.
    other = Client(REMOTE_ADDR="198.51.100.8")
    assert other.post(RESET, {"email": "owner@example.org"}).status_code == 302
    assert len(mail.outbox) == 1


def test_the_throttled_page_speaks_malayalam(owner):
    client = Client(HTTP_ACCEPT_LANGUAGE="ml")
    for _ in range(settings.PASSWORD_RESET_PER_ADDRESS):
        client.post(RESET, {"email": "owner@example.org"})
    refused = client.post(RESET, {"email": "owner@example.org"})
    assert refused.status_code == 429
    page = refused.content.decode()
    assert 'lang="ml"' in page
    assert "പാസ്‌വേഡ് മാറ്റാനുള്ള അപേക്ഷകൾ കൂടിപ്പോയി" in page
    assert "ഇപ്പോൾ മെയിൽ അയച്ചില്ല" in page
    assert "Too many" not in page


@override_settings(TRUSTED_PROXIES=1)
def test_behind_the_proxy_the_client_is_the_forwarded_address(owner):
    """As the login lockout counts it: the proxy's own address is everyone's."""
    limit = settings.PASSWORD_RESET_PER_CLIENT
    for n in range(limit):
        Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.1").post(
            RESET, {"email": f"x{n}@example.org"}
        )
    blocked = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.1")
    assert blocked.post(RESET, {"email": "owner@example.org"}).status_code == 429
    served = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.2")
    assert served.post(RESET, {"email": "owner@example.org"}).status_code == 302
    assert len(mail.outbox) == 1
