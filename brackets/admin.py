"""The knockout in the Django admin: read-only, for the organizers of their
tournaments. The bracket changes only through its services (seeding, confirmed
sheets, resets), which keep places and sheets in step."""

from django.contrib import admin

from scoring.admin import ReadOnly, ReadOnlyInline

from .models import Bracket, Game, KnockoutMatch, Seed


class SeedInline(ReadOnlyInline):
    model = Seed
    fields = ["number", "team", "by_lot"]
    readonly_fields = fields


@admin.register(Bracket)
class BracketAdmin(ReadOnly):
    list_display = ["__str__", "qualifiers", "size", "seeded_at"]
    list_select_related = ["tournament"]
    inlines = [SeedInline]

    def has_add_permission(self, request):
        return False


class GameInline(ReadOnlyInline):
    model = Game
    fields = ["number", "sheet", "voided_at"]
    readonly_fields = fields


@admin.register(KnockoutMatch)
class KnockoutMatchAdmin(ReadOnly):
    tournament_path = "bracket__tournament"
    list_display = ["number", "stage", "team_a", "team_b", "winner", "bracket"]
    list_filter = ["stage"]
    list_select_related = ["team_a", "team_b", "bracket__tournament"]
    inlines = [GameInline]

    def has_add_permission(self, request):
        return False

    def _organizes(self, request, obj=None) -> bool:
        return super()._organizes(request, obj.bracket if obj else None)
