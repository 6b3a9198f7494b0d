"""The Django admin, for the site's administrators only (docs/security.md): a
superuser, or someone a site administrator invited as one. Organizers, scorers and
captains work on the site's pages; being staff (`is_staff`) opens nothing here.

Where the admin writes, it writes through the services, so it keeps the API's rules
(tournament/admin.py); deleting rows in bulk ("delete selected") is off everywhere,
since it would delete without them.
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy

from .accounts.selectors import is_site_administrator


class AdministratorLoginForm(AdminAuthenticationForm):
    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": gettext_lazy(
            "Please enter the username and password of a site administrator's "
            "account. Organizers work on the site's pages."
        ),
    }

    def confirm_login_allowed(self, user) -> None:
        AuthenticationForm.confirm_login_allowed(self, user)  # an active account
        if not is_site_administrator(user):
            raise ValidationError(
                self.error_messages["invalid_login"], code="invalid_login"
            )


class SiteAdministration(admin.AdminSite):
    site_header = "56 tournaments: site administration"
    site_title = "56 tournaments"
    login_form = AdministratorLoginForm

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.disable_action("delete_selected")

    def has_permission(self, request) -> bool:
        return request.user.is_active and is_site_administrator(request.user)
