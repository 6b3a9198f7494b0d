"""Forms of the organizer's registration page: shape only; the rules are in the
services."""

from django import forms

from .domain.sections import US_STATES
from .models import SUBSTITUTIONS_MAX


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


class CheckInForm(forms.Form):
    team = forms.IntegerField(widget=forms.HiddenInput)
    arrived = forms.BooleanField(required=False, widget=forms.HiddenInput)


class MoveForm(forms.Form):
    team = forms.IntegerField(widget=forms.HiddenInput)
    section = forms.IntegerField(min_value=1, max_value=2**63 - 1)


STATE_CHOICES = sorted(US_STATES.items())


# A tournament's settings (the create and settings pages)
# ----------------------------------------------------------------------------------


class TournamentForm(forms.Form):
    """The settings of a tournament. The rule set's numbers come pre-filled with its
    defaults (rulesets.py); a setting an earlier step fixed is shown disabled with the
    step's name (domain/setup.py)."""

    name = forms.CharField(max_length=120, label="Name")
    slug = forms.SlugField(
        max_length=60,
        required=False,
        label="Address",
        help_text="/t/<address>/: made from the name when left empty; fixed once made",
    )
    starts_on = forms.DateField(
        required=False,
        label="First day",
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    ends_on = forms.DateField(
        required=False, label="Last day", widget=forms.DateInput(attrs={"type": "date"})
    )
    venue = forms.CharField(max_length=200, required=False, label="Venue")
    ruleset = forms.ChoiceField(label="Rule set")
    players_per_team = forms.IntegerField(
        min_value=2, max_value=4, label="Players per team"
    )
    league_rounds = forms.IntegerField(
        min_value=1, max_value=50, label="League matches per team"
    )
    league_deals = forms.IntegerField(
        min_value=1,
        max_value=99,
        required=False,
        label="Deals per league match",
        help_text="Empty only in the tables format",
    )
    qualifiers = forms.IntegerField(
        min_value=2, max_value=512, label="Teams in the knockout"
    )
    check_in_required = forms.BooleanField(
        required=False,
        label="Check-in required",
        help_text="The draw takes the teams checked in only",
    )
    substitutions_allowed = forms.IntegerField(
        min_value=0, max_value=SUBSTITUTIONS_MAX, label="Substitutions per team"
    )
    published = forms.BooleanField(
        required=False, label="Published", help_text="Everyone can see it"
    )

    NUMBERS = ("players_per_team", "league_rounds", "league_deals", "qualifiers")

    def __init__(
        self, *args, rulesets=(), fixed: dict | None = None, creating: bool, **kwargs
    ):
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = [(r.code.value, r.title) for r in rulesets]
        if not creating:
            del self.fields["slug"]
        for name, step in (fixed or {}).items():
            field = self.fields[name]
            field.disabled = True
            field.help_text = f"Fixed: {step.done}"

    def changes(self) -> dict:
        """The settings to save: every field not fixed, empty address left out."""
        data = {
            name: value
            for name, value in self.cleaned_data.items()
            if not self.fields[name].disabled
        }
        if not data.get("slug"):
            data.pop("slug", None)
        return data
