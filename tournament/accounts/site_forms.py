"""Forms of the site administration page: shape only; the rules are in the services."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from tournament.ops.mail import invitation_address_help

from ..models import SiteRole
from .services import INVITATION_DAYS_MAX


class SiteInvitationForm(forms.Form):
    role = forms.ChoiceField(
        choices=SiteRole.choices, initial=SiteRole.CREATOR, label=_("Role")
    )
    name = forms.CharField(
        max_length=80,
        required=False,
        label=_("For"),
        help_text=_("A name, to know it by"),
    )
    email = forms.EmailField(
        required=False,
        label=_("E-mail"),
        help_text=_("Optional: the link is sent there"),
    )
    days = forms.IntegerField(
        min_value=1, max_value=INVITATION_DAYS_MAX, label=_("Valid for (days)")
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["days"].initial = settings.INVITATION_DAYS
        if help_text := invitation_address_help():
            self.fields["email"].help_text = help_text
