"""Forms of the people pages (a tournament's People, the Site administration page)
and of an invitation link: shape only; the rules are in the services."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from tournament.ops.mail import invitation_address_help

from ..domain.types import Role
from ..models import SiteRole
from .invitations import INVITATION_DAYS_MAX

ROLE_CHOICES = [
    # The role's one label, as the People tab lists it: a co-organizer is an
    # organizer like the tournament's creator.
    (Role.ORGANIZER.value, _("Organizer")),
    (Role.SCORER.value, _("Scorer")),
    (Role.CAPTAIN.value, _("Captain")),
]


class TournamentRoleFields(forms.Form):
    """A role in a tournament, and the team a captain's is for (`teams`: the
    tournament's), as an invitation and a direct grant ask them."""

    role = forms.ChoiceField(choices=ROLE_CHOICES, initial=Role.SCORER, label=_("Role"))
    team = forms.TypedChoiceField(
        required=False,
        coerce=int,
        empty_value=None,
        label=_("Team"),
        help_text=_("For a captain"),
    )

    def __init__(self, *args, teams=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].choices = [("", "—")] + [(t.pk, t.name) for t in teams]


class LinkForm(forms.Form):
    """What every invitation's form asks, a tournament's or the site's: whom it is
    for, where to mail it, and for how long it works."""

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


class InvitationForm(TournamentRoleFields, LinkForm):
    """An invitation to a role in a tournament."""

    field_order = ["role", "team", "name", "email", "days"]


class SiteInvitationForm(LinkForm):
    """An invitation to the site's roles: a tournament creator or an administrator."""

    field_order = ["role", "name", "email", "days"]

    role = forms.ChoiceField(
        choices=SiteRole.choices, initial=SiteRole.CREATOR, label=_("Role")
    )


class RoleForm(TournamentRoleFields, forms.Form):
    """A role for someone who has an account already, by username."""

    field_order = ["username", "role", "team"]

    username = forms.CharField(max_length=150, label=_("Username"))


class RowForm(forms.Form):
    """A button on one row of a list: which row."""

    row = forms.IntegerField(min_value=1, max_value=2**63 - 1, widget=forms.HiddenInput)


class AcceptForm(forms.Form):
    """A new account made from an invitation."""

    username = forms.CharField(
        max_length=150,
        label=_("Choose a username"),
        widget=forms.TextInput(
            attrs={"autocomplete": "username", "autocapitalize": "none"}
        ),
    )
    password = forms.CharField(
        label=_("Choose a password"),
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    password_again = forms.CharField(
        label=_("The password again"),
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self):
        data = super().clean()
        if data.get("password") and data.get("password") != data.get("password_again"):
            self.add_error("password_again", _("The two passwords differ."))
        return data
