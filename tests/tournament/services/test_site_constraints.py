"""The site's invitations and the password reset counts: every named constraint
refuses a bad row at the database, past the services."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from tournament.models import PasswordResetRequest, SiteInvitation

pytestmark = pytest.mark.django_db
DIGEST = "a" * 64


def _invitation(**kw):
    now = timezone.now()
    values = {
        "role": "creator",
        "key_digest": DIGEST,
        "created_at": now,
        "expires_at": now + timedelta(days=7),
    }
    return SiteInvitation(**{**values, **kw})


@pytest.mark.parametrize(
    ("values", "constraint"),
    [
        ({"role": "organizer"}, "site_invitation_role_known"),
        ({"key_digest": "not-hex"}, "site_invitation_key_digest_sha256"),
        (
            {"accepted_at": timezone.now(), "withdrawn_at": timezone.now()},
            "site_invitation_accepted_or_withdrawn_not_both",
        ),
        (
            {"expires_at": timezone.now() - timedelta(days=1)},
            "site_invitation_expires_after_made",
        ),
    ],
)
def test_a_bad_site_invitation_is_refused(values, constraint):
    with pytest.raises(IntegrityError, match=constraint), transaction.atomic():
        _invitation(**values).save()


def test_a_key_opens_one_site_invitation():
    _invitation().save()
    with pytest.raises(IntegrityError), transaction.atomic():
        _invitation().save()


def test_a_reset_request_keeps_a_digest_only():
    with (
        pytest.raises(IntegrityError, match="password_reset_address_digest_sha256"),
        transaction.atomic(),
    ):
        PasswordResetRequest.objects.create(
            at=timezone.now(), address_digest="owner@example.org", sent=True
        )
