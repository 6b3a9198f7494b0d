"""People's accounts beside the tournaments: the one-time links that give a role
(a tournament's invitations, the site's), a person's standing on the site, the
password reset requests counted to throttle them, and a person's language
(docs/people.md, docs/security.md)."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy

from ..domain.types import Role
from ..words import choices as _choices
from .tournaments import Team, Tournament, someone


class OneTimeLink(models.Model):
    """What every invitation link shares, a tournament's or the site's: whom it is for,
    a digest of its key (never the key: the link is shown once, and a copy of the
    database cannot be used to accept it), when it expires, and who made, accepted or
    withdrew it (accounts/invitations.py: the one flow both kinds go through)."""

    name = models.CharField(max_length=80, blank=True, help_text="Who it is for.")
    email = models.EmailField(blank=True)
    key_digest = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = someone()
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = someone()
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_by = someone()

    class Meta:
        abstract = True


class Invitation(OneTimeLink):
    """A one-time link that gives whoever opens it a role in the tournament
    (docs/people.md). Only a digest of its key is kept: the link is shown to the
    organizer once, and a copy of the database cannot be used to accept it."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="invitations"
    )
    role = models.CharField(max_length=20, choices=_choices(Role))
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["key_digest"], name="invitation_key_once"),
            models.CheckConstraint(
                condition=Q(role__in=[r.value for r in Role]),
                name="invitation_role_known",
            ),
            models.CheckConstraint(
                condition=Q(role=Role.CAPTAIN, team__isnull=False)
                | (~Q(role=Role.CAPTAIN) & Q(team__isnull=True)),
                name="invitation_team_only_for_captain",
            ),
            models.CheckConstraint(
                condition=Q(accepted_at__isnull=True) | Q(withdrawn_at__isnull=True),
                name="invitation_accepted_or_withdrawn_not_both",
            ),
            models.CheckConstraint(
                condition=Q(key_digest__regex=r"^[0-9a-f]{64}$"),
                name="invitation_key_digest_sha256",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.role} invitation to {self.tournament}"


class LanguagePreference(models.Model):
    """The language a signed-in person chose on the switcher (docs/glossary.md): it
    follows them to every browser they sign in on."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="language_preference",
    )
    language = models.CharField(max_length=8, choices=settings.LANGUAGES)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(language__in=[code for code, _ in settings.LANGUAGES]),
                name="languagepreference_language_known",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} reads {self.language}"


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
