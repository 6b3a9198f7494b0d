"""Forms of the desk: shape only; the rules are in the services."""

from django import forms
from django.utils.translation import gettext_lazy as _


class AnnouncementForm(forms.Form):
    text = forms.CharField(
        max_length=200,
        label=_("Announcement"),
        help_text=_("Shown on the venue screen until you take it off"),
    )


class RowForm(forms.Form):
    row = forms.IntegerField(min_value=1, max_value=2**63 - 1, widget=forms.HiddenInput)


class WhereForm(forms.Form):
    q = forms.CharField(
        max_length=80,
        required=False,
        label=_("Your team or your name"),
        widget=forms.TextInput(
            attrs={"type": "search", "autocomplete": "off", "enterkeyhint": "search"}
        ),
    )
