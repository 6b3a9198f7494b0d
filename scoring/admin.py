"""Score sheets in the Django admin: read-only, for the site's administrators.

A sheet changes only through its services (the score page and the API), which check
the version, recompute the awards and keep the history; an admin form would bypass all
three, so every score-sheet model is view-only here.
"""

from django.contrib import admin

from tournament.admin import SiteAdministratorAdmin

from .models import Deal, Match, Penalty, SheetChange


class ReadOnly(SiteAdministratorAdmin):
    """Every row, to read (SiteAdministratorAdmin adds, changes and deletes none)."""


class ReadOnlyInline(admin.TabularInline):
    """Rows of a match the user may already see (the match admin checks that)."""

    extra = 0
    can_delete = False

    def has_view_permission(self, request, obj=None):
        return True

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class DealInline(ReadOnlyInline):
    model = Deal
    fields = [
        "number",
        "declarer",
        "value",
        "trump",
        "level",
        "taken",
        "bidder",
        "award_to",
        "award",
    ]
    readonly_fields = fields


class SheetChangeInline(ReadOnlyInline):
    model = SheetChange
    fields = ["at", "actor_name", "action", "version", "before", "after", "reason"]
    readonly_fields = fields


@admin.register(Match)
class MatchAdmin(ReadOnly):
    list_display = [
        "__str__",
        "tournament",
        "stage",
        "round",
        "table",
        "status",
        "total_a",
        "total_b",
        "winner",
        "version",
    ]
    list_filter = ["stage", "status", "round", "tournament"]
    search_fields = ["team_a__name", "team_b__name"]
    list_select_related = ["tournament", "team_a", "team_b"]
    inlines = [DealInline, SheetChangeInline]


@admin.register(Penalty)
class PenaltyAdmin(ReadOnly):
    list_display = ["__str__", "kind", "offender", "points", "warning", "note"]
    list_filter = ["kind"]
    list_select_related = ["deal"]
