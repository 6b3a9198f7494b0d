"""Django admin for organizers: each sees the tournaments they organize, and nothing
else.

Fields that registration rules govern (a team's section and captain's place, a section's
states and cities, the rule set's numbers) are read-only here: they change through the
registration page or the API, whose services check the rules. Organizers need `is_staff`
to log in to the admin; their tournament roles, not Django model permissions, decide
what they see.
"""

from django.contrib import admin

from .domain.types import Role
from .models import Membership, Player, Section, Team, Tournament


def _organized(user):
    return Membership.objects.filter(user=user, role=Role.ORGANIZER).values(
        "tournament"
    )


class OrganizerScopedAdmin(admin.ModelAdmin):
    """Rows of the tournaments the user organizes; a superuser sees all."""

    tournament_path = "tournament"

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        return qs.filter(**{f"{self.tournament_path}__in": _organized(request.user)})

    def _organizes(self, request, obj=None) -> bool:
        if request.user.is_superuser:
            return True
        if not request.user.is_active or not request.user.is_staff:
            return False
        organized = Membership.objects.filter(user=request.user, role=Role.ORGANIZER)
        if obj is None:
            return organized.exists()
        tournament_id = obj.pk if isinstance(obj, Tournament) else obj.tournament_id
        return organized.filter(tournament_id=tournament_id).exists()

    def has_module_permission(self, request):
        return self._organizes(request)

    def has_view_permission(self, request, obj=None):
        return self._organizes(request, obj)

    def has_change_permission(self, request, obj=None):
        return self._organizes(request, obj)

    def has_add_permission(self, request):
        return False  # new rows go through the services (registration page, API)

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(OrganizerScopedAdmin):
    tournament_path = "pk"
    list_display = [
        "name",
        "slug",
        "ruleset",
        "status",
        "published",
        "starts_on",
        "venue",
    ]
    list_filter = ["status", "published", "ruleset"]
    search_fields = ["name", "slug", "venue"]
    readonly_fields = [
        "slug",
        "ruleset",
        "players_per_team",
        "league_rounds",
        "league_deals",
        "qualifiers",
        "status",
        "created_at",
        "updated_at",
    ]
    fields = ["name", "published", "venue", "starts_on", *readonly_fields]

    def has_add_permission(self, request):
        return request.user.is_superuser


@admin.register(Section)
class SectionAdmin(OrganizerScopedAdmin):
    list_display = [
        "name",
        "tournament",
        "states_listed",
        "cities_listed",
        "is_international",
    ]
    list_filter = ["tournament", "is_international"]
    search_fields = ["name"]
    readonly_fields = ["tournament", "name", "states", "cities", "is_international"]

    @admin.display(description="States")
    def states_listed(self, obj):
        return ", ".join(obj.states)

    @admin.display(description="Cities")
    def cities_listed(self, obj):
        return ", ".join(obj.cities)


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ["position", "name"]
    readonly_fields = ["position", "name"]
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Team)
class TeamAdmin(OrganizerScopedAdmin):
    list_display = [
        "name",
        "tournament",
        "section",
        "placement",
        "captain_name",
        "captain_city",
        "captain_state",
        "captain_country",
    ]
    list_filter = ["tournament", "section", "placement", "captain_country"]
    list_select_related = ["tournament", "section"]
    search_fields = ["name", "captain_name", "captain_city", "players__name"]
    readonly_fields = [*list_display, "created_at"]
    inlines = [PlayerInline]


@admin.register(Membership)
class MembershipAdmin(OrganizerScopedAdmin):
    list_display = ["user", "role", "tournament", "team", "created_at"]
    list_filter = ["role", "tournament"]
    list_select_related = ["user", "tournament", "team"]
    search_fields = ["user__username", "team__name"]
    readonly_fields = ["tournament", "user", "role", "team", "created_at"]

    def has_delete_permission(self, request, obj=None):
        return self._organizes(request, obj)
