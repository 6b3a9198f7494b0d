"""Forms of the organizer's registration page: shape only; the rules are in the
services."""

from django import forms

from .domain.sections import US_STATES
from .domain.types import Role


class TeamForm(forms.Form):
    name = forms.CharField(max_length=80, label="Team name")
    captain_name = forms.CharField(max_length=80, label="Captain")
    captain_city = forms.CharField(max_length=80, required=False, label="City")
    captain_state = forms.CharField(
        max_length=40,
        required=False,
        label="State (US)",
        widget=forms.TextInput(
            attrs={"list": "us-states", "autocapitalize": "characters"}
        ),
    )
    captain_country = forms.CharField(max_length=60, initial="USA", label="Country")
    player_2 = forms.CharField(max_length=80, required=False, label="Player 2")
    player_3 = forms.CharField(max_length=80, required=False, label="Player 3")
    player_4 = forms.CharField(max_length=80, required=False, label="Player 4")

    def __init__(self, *args, players_per_team: int = 3, **kwargs):
        super().__init__(*args, **kwargs)
        for n in range(players_per_team + 1, 5):
            del self.fields[f"player_{n}"]

    def players(self) -> list[str]:
        return [
            self.cleaned_data[f"player_{n}"]
            for n in range(2, 5)
            if self.cleaned_data.get(f"player_{n}")
        ]


class SectionForm(forms.Form):
    name = forms.CharField(max_length=80, label="Section name")
    states = forms.CharField(
        required=False, label="States", help_text="Codes, comma-separated: NJ, NY, PA"
    )
    cities = forms.CharField(
        required=False,
        label="Cities",
        help_text="Comma-separated; a city wins over its state",
    )

    def split(self, field: str) -> list[str]:
        return [
            p.strip() for p in self.cleaned_data.get(field, "").split(",") if p.strip()
        ]


class ImportForm(forms.Form):
    file = forms.FileField(label="Team list (.xlsx)")


class MemberRemoveForm(forms.Form):
    membership = forms.IntegerField(widget=forms.HiddenInput)


class CheckInForm(forms.Form):
    team = forms.IntegerField(widget=forms.HiddenInput)
    arrived = forms.BooleanField(required=False, widget=forms.HiddenInput)


class MoveForm(forms.Form):
    team = forms.IntegerField(widget=forms.HiddenInput)
    section = forms.IntegerField(min_value=1, max_value=2**63 - 1)


STATE_CHOICES = sorted(US_STATES.items())


class MemberForm(forms.Form):
    username = forms.CharField(max_length=150)
    password = forms.CharField(
        required=False,
        widget=forms.PasswordInput(render_value=False),
        help_text="Only for a new user",
    )
    role = forms.ChoiceField(
        choices=[(r.value, r.value.capitalize()) for r in Role], initial=Role.SCORER
    )
    team = forms.TypedChoiceField(
        required=False, coerce=int, empty_value=None, help_text="For a captain"
    )

    def __init__(self, *args, teams=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].choices = [("", "—")] + [(t.pk, t.name) for t in teams]
