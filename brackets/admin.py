"""The knockout in the Django admin: read-only, for the site's administrators. The
bracket changes only through its services (seeding, confirmed sheets, resets), which
keep places and sheets in step."""

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


class GameInline(ReadOnlyInline):
    model = Game
    fields = ["number", "sheet", "voided_at"]
    readonly_fields = fields


@admin.register(KnockoutMatch)
class KnockoutMatchAdmin(ReadOnly):
    list_display = ["number", "stage", "team_a", "team_b", "winner", "bracket"]
    list_filter = ["stage"]
    list_select_related = ["team_a", "team_b", "bracket__tournament"]
    inlines = [GameInline]
