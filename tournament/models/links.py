"""Table and team links: a page that needs no account (docs/links.md)."""

from django.db import models
from django.db.models import Q

from .tournaments import Team, Tournament, someone


class LinkKind(models.TextChoices):
    TABLE = "table", "table"  # enters the sheets played at one table
    TEAM = "team", "team"  # checks one team in, confirms its sheets, disputes


class Link(models.Model):
    """A table's or a team's link: a page that needs no account (docs/links.md).

    The key is kept as it is, because the organizer prints it on cards and shows it
    again; it is looked up by its SHA-256 digest and compared in constant time.
    Renewing a link replaces its key, and the old one stops working at once."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="links"
    )
    kind = models.CharField(max_length=10, choices=LinkKind.choices)
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.CASCADE, related_name="links"
    )
    key = models.CharField(max_length=64)
    key_digest = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    renewed_at = models.DateTimeField(null=True, blank=True)
    renewed_by = someone()

    class Meta:
        ordering = ["tournament_id", "kind", "table", "team_id"]
        constraints = [
            models.UniqueConstraint(fields=["key_digest"], name="link_key_once"),
            models.CheckConstraint(
                condition=Q(kind__in=LinkKind.values), name="link_kind_known"
            ),
            models.CheckConstraint(
                condition=Q(kind=LinkKind.TABLE, table__gte=1, team__isnull=True)
                | Q(kind=LinkKind.TEAM, table__isnull=True, team__isnull=False),
                name="link_names_its_table_or_team",
            ),
            models.UniqueConstraint(
                fields=["tournament", "table"],
                condition=Q(kind=LinkKind.TABLE),
                name="link_one_per_table",
            ),
            models.UniqueConstraint(
                fields=["team"],
                condition=Q(kind=LinkKind.TEAM),
                name="link_one_per_team",
            ),
            models.CheckConstraint(
                condition=Q(key_digest__regex=r"^[0-9a-f]{64}$"),
                name="link_key_digest_sha256",
            ),
            models.CheckConstraint(
                condition=Q(key__regex=r"^[A-Za-z0-9_-]{43,64}$"),
                name="link_key_long",
            ),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        """How the history and the pages name whoever holds the link."""
        if self.kind == LinkKind.TABLE:
            return f"table {self.table} link"
        return f"{self.team.name} team link" if self.team else "team link"
