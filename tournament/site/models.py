"""The site's own records, beside its tournaments (docs/people.md, docs/security.md):
a person's standing on the site, the one-time links that grant it, and the password
reset requests counted to throttle them. Imported at the end of tournament/models.py.
"""

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy

from ..models import OneTimeLink


class SiteRole(models.TextChoices):
    """A person's standing on the site, beside the roles they hold in tournaments
    (docs/people.md): a creator may create tournaments; an administrator may also
    invite creators and administrators, and uses the Django admin. A superuser is an
    administrator. Kept as Django permissions (`tournament.add_tournament`,
    `tournament.administer_site`), so that a grant made in the Django admin counts
    the same as one made by invitation."""

    CREATOR = "creator", gettext_lazy("Tournament creator")
    ADMINISTRATOR = "administrator", gettext_lazy("Site administrator")


class SiteInvitation(OneTimeLink):
    """A one-time link that makes whoever opens it a tournament creator or a site
    administrator (docs/people.md). As a tournament's invitations: only a digest of
    its key is kept, it works once, and it can be withdrawn until it is accepted."""

    role = models.CharField(max_length=20, choices=SiteRole.choices)

    class Meta:
        ordering = ["-created_at", "-pk"]
        permissions = [
            (
                "administer_site",
                "Administers the site: invites tournament creators and administrators",
            )
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["key_digest"], name="site_invitation_key_once"
            ),
            models.CheckConstraint(
                condition=Q(role__in=SiteRole.values),
                name="site_invitation_role_known",
            ),
            models.CheckConstraint(
                condition=Q(accepted_at__isnull=True) | Q(withdrawn_at__isnull=True),
                name="site_invitation_accepted_or_withdrawn_not_both",
            ),
            models.CheckConstraint(
                condition=Q(key_digest__regex=r"^[0-9a-f]{64}$"),
                name="site_invitation_key_digest_sha256",
            ),
            models.CheckConstraint(
                condition=Q(expires_at__gt=F("created_at")),
                name="site_invitation_expires_after_made",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.role} invitation to the site"


class PasswordResetRequest(models.Model):
    """One request for a password reset mail, counted to throttle them per address
    and per client (tournament/web/security.py, docs/security.md). In the database, as
    django-axes keeps failed logins, so that every web worker counts the same ones.
    The address is kept as a digest: the count needs no more."""

    at = models.DateTimeField(db_index=True)
    address_digest = models.CharField(max_length=64)
    client = models.CharField(max_length=45, blank=True)
    sent = models.BooleanField(help_text="False when the throttle refused it.")

    class Meta:
        indexes = [
            models.Index(
                fields=["address_digest", "at"], name="password_reset_address"
            ),
            models.Index(fields=["client", "at"], name="password_reset_client"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(address_digest__regex=r"^[0-9a-f]{64}$"),
                name="password_reset_address_digest_sha256",
            ),
        ]

    def __str__(self) -> str:
        return f"password reset request at {self.at:%Y-%m-%d %H:%M}"
