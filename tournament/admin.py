"""The Django admin's tournaments, for the site's administrators (tournament/
admin_site.py lets no one else in): every tournament's rows, to read.

The rows change through the site's pages and the API, whose services check the rules
(a tournament's settings fixed by its steps, a team's section, a sheet's version and
history), so the admin shows them read-only and adds none. The one write it keeps is
deleting a role, and a user, through the service the API uses: a tournament's last
organizer is refused here as the API refuses it (409 `last_organizer`).
"""

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpResponseRedirect
from django.urls import reverse

from .accounts import services as account_services
from .accounts.selectors import is_site_administrator
from .accounts.users import username_refusals
from .domain.errors import RuleError
from .models import Membership, Player, Section, Team, Tournament
from .words import refusal


class SiteAdministratorAdmin(admin.ModelAdmin):
    """Every row, read-only, for the site's administrators."""

    def has_module_permission(self, request):
        return is_site_administrator(request.user)

    def has_view_permission(self, request, obj=None):
        return is_site_administrator(request.user)

    def has_change_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False  # new rows go through the services (the pages, the API)

    def has_delete_permission(self, request, obj=None):
        return False


class ThroughTheServices:
    """A deletion the admin makes through a service: what the service refuses is
    shown as a message on the row's page, and nothing is deleted."""

    def delete_view(self, request, object_id, extra_context=None):
        try:
            with transaction.atomic():
                return super().delete_view(request, object_id, extra_context)
        except RuleError as error:
            self.message_user(request, refusal(error), messages.ERROR)
            opts = self.model._meta
            return HttpResponseRedirect(
                reverse(
                    f"admin:{opts.app_label}_{opts.model_name}_change",
                    args=[object_id],
                )
            )


@admin.register(Tournament)
class TournamentAdmin(SiteAdministratorAdmin):
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


@admin.register(Section)
class SectionAdmin(SiteAdministratorAdmin):
    list_display = [
        "name",
        "tournament",
        "states_listed",
        "cities_listed",
        "is_international",
    ]
    list_filter = ["tournament", "is_international"]
    list_select_related = ["tournament"]
    search_fields = ["name"]

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

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Team)
class TeamAdmin(SiteAdministratorAdmin):
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
    inlines = [PlayerInline]


@admin.register(Membership)
class MembershipAdmin(ThroughTheServices, SiteAdministratorAdmin):
    list_display = ["user", "role", "tournament", "team", "created_at"]
    list_filter = ["role", "tournament"]
    list_select_related = ["user", "tournament", "team"]
    search_fields = ["user__username", "team__name"]

    def has_delete_permission(self, request, obj=None):
        return is_site_administrator(request.user)

    def delete_model(self, request, obj):
        account_services.membership_delete(membership=obj)


User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)


def _site_username(username: str | None, *, exclude_pk: int | None = None):
    """A username the admin makes or renames to, held to the site's rules as the
    invitations hold it (docs/people.md, "Usernames"); None when Django's own
    checks refused it already."""
    errors = (
        username_refusals(username, exclude_pk=exclude_pk)
        if username is not None
        else []
    )
    if errors:
        raise ValidationError([refusal(error) for error in errors])
    return username


class SiteUserCreationForm(AdminUserCreationForm):
    def clean_username(self):
        return _site_username(super().clean_username())


class SiteUserChangeForm(UserChangeForm):
    def clean_username(self):
        username = self.cleaned_data.get("username")
        if username == self.initial.get("username"):
            return username  # kept as it is, whatever rules came after it
        return _site_username(username, exclude_pk=self.instance.pk)


@admin.register(User)
class SiteUserAdmin(ThroughTheServices, UserAdmin):
    """Django's users page (superusers and those given its permissions), whose
    deletion keeps every tournament an organizer, and whose usernames follow the
    site's rules."""

    add_form = SiteUserCreationForm
    form = SiteUserChangeForm

    def delete_model(self, request, obj):
        account_services.user_delete(user=obj)
