"""Forms of the organizer's registration page: shape only; the rules are in the
services."""

from django import forms
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .domain.sections import US_STATES, USA, known_countries
from .domain.zones import (
    listed_zone_names,
    zone_choice_label,
    zone_names,
    zone_region,
)
from .models import SUBSTITUTIONS_MAX
from .words import FIXED_BY, ZONE_REGIONS, ruleset_name, zone_label


class TeamForm(forms.Form):
    name = forms.CharField(max_length=80, label=_("Team name"))
    captain_name = forms.CharField(max_length=80, label=_("Captain"))
    captain_city = forms.CharField(max_length=80, required=False, label=_("City"))
    captain_state = forms.CharField(
        max_length=40,
        required=False,
        label=_("State (US)"),
        widget=forms.TextInput(
            attrs={"list": "us-states", "autocapitalize": "characters"}
        ),
    )
    captain_country = forms.CharField(max_length=60, initial=USA, label=_("Country"))
    player_2 = forms.CharField(max_length=80, required=False, label=_("Player 2"))
    player_3 = forms.CharField(max_length=80, required=False, label=_("Player 3"))
    player_4 = forms.CharField(max_length=80, required=False, label=_("Player 4"))

    def __init__(
        self, *args, players_per_team: int = 3, home_country: str = USA, **kwargs
    ):
        super().__init__(*args, **kwargs)
        for n in range(players_per_team + 1, 5):
            del self.fields[f"player_{n}"]
        # The tournament's home country places its captains (rules.md §5): the form
        # starts from it, and outside the USA a state is a region as written.
        self.fields["captain_country"].initial = home_country
        if home_country != USA:
            state = self.fields["captain_state"]
            state.label = _("State or region")
            state.widget.attrs = {"list": "regions"}

    def players(self) -> list[str]:
        return [
            self.cleaned_data[f"player_{n}"]
            for n in range(2, 5)
            if self.cleaned_data.get(f"player_{n}")
        ]


class SectionForm(forms.Form):
    name = forms.CharField(max_length=80, label=_("Section name"))
    states = forms.CharField(
        required=False,
        label=_("States"),
        help_text=_("Codes, comma-separated: NJ, NY, PA"),
    )
    cities = forms.CharField(
        required=False,
        label=_("Cities"),
        help_text=_("Comma-separated; a city wins over its state"),
    )

    def __init__(self, *args, home_country: str = USA, **kwargs):
        super().__init__(*args, **kwargs)
        if home_country != USA:  # regions as the organizer writes them (rules.md §5)
            states = self.fields["states"]
            states.label = _("States or regions")
            states.help_text = _(
                "As you write them, comma-separated: Kerala-North, Malabar (any case "
                "or spacing matches)"
            )
            self.fields["cities"].help_text = _(
                "Comma-separated: Kochi, Aluva; a city wins over its region"
            )

    def split(self, field: str) -> list[str]:
        return [
            p.strip() for p in self.cleaned_data.get(field, "").split(",") if p.strip()
        ]


class ImportForm(forms.Form):
    file = forms.FileField(label=_("Team list (.xlsx)"))


class CheckInForm(forms.Form):
    team = forms.IntegerField(widget=forms.HiddenInput)
    arrived = forms.BooleanField(required=False, widget=forms.HiddenInput)


class MoveForm(forms.Form):
    team = forms.IntegerField(widget=forms.HiddenInput)
    section = forms.IntegerField(min_value=1, max_value=2**63 - 1, label=_("Section"))


STATE_CHOICES = sorted(US_STATES.items())
COUNTRY_CHOICES = known_countries()


def time_zone_choices(current: str = "") -> list:
    """The time zones a tournament may choose, by region ("America": "New York ·
    USA · EST", ..., "North Dakota – Center · USA · CST": a place, its country and
    its short name now, so that each finds its zone), UTC first: the tz database's
    canonical zones, each once (not its old aliases: Asia/Calcutta,
    America/Buenos_Aires); `current` (the site's, or the tournament's) among them
    even when it is such an older name (US/Eastern, typed via the API)."""
    groups: dict[str, list[tuple[str, str]]] = {}
    now = timezone.now()
    for name in listed_zone_names():
        region = zone_region(name)
        if region in ZONE_REGIONS:
            groups.setdefault(region, []).append((name, zone_choice_label(name, now)))
    for names in groups.values():
        names.sort(key=lambda choice: choice[1])
    listed = {name for names in groups.values() for name, _label in names}
    first = [("UTC", "UTC")]
    if current and current != "UTC" and current not in listed:
        first.append((current, zone_label(current)))
    return first + [(ZONE_REGIONS[r], names) for r, names in groups.items()]


class ZoneSelect(forms.Select):
    """The zones' list: each zone's label is the tz database's English (a place, a
    country: "Kolkata · India · IST"), said as English on a Malayalam page
    (lang="en"); the regions and the home country's choice are the page's."""

    def create_option(self, name, value, *args, **kwargs):
        option = super().create_option(name, value, *args, **kwargs)
        if value:
            option["attrs"]["lang"] = "en"
        return option


class ZoneChoiceField(forms.ChoiceField):
    """A time zone from the list; any other name of the tz database (an old alias
    such as Asia/Calcutta, as the API accepts it) is still a zone, not a wrong
    choice."""

    widget = ZoneSelect

    def valid_value(self, value) -> bool:
        return str(value) in zone_names() or super().valid_value(value)


# A tournament's settings (the create and settings pages)
# ----------------------------------------------------------------------------------


class TournamentForm(forms.Form):
    """The settings of a tournament. The rule set's numbers come pre-filled with its
    defaults (rulesets.py); a setting an earlier step fixed is shown disabled with the
    step's name (domain/setup.py)."""

    name = forms.CharField(max_length=120, label=_("Name"))
    slug = forms.SlugField(
        max_length=60,
        required=False,
        label=_("Address"),
        help_text=_(
            "/t/<address>/: made from the name when left empty; fixed once made"
        ),
    )
    starts_on = forms.DateField(
        required=False,
        label=_("First day"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    ends_on = forms.DateField(
        required=False,
        label=_("Last day"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    venue = forms.CharField(max_length=200, required=False, label=_("Venue"))
    ruleset = forms.ChoiceField(label=_("Rule set"))
    players_per_team = forms.IntegerField(
        min_value=2, max_value=4, label=_("Players per team")
    )
    league_rounds = forms.IntegerField(
        min_value=1, max_value=50, label=_("League matches per team")
    )
    league_deals = forms.IntegerField(
        min_value=1,
        max_value=99,
        required=False,
        label=_("Deals per league match"),
        help_text=_("Empty only in the tables format"),
    )
    qualifiers = forms.IntegerField(
        min_value=2, max_value=512, label=_("Teams in the knockout")
    )
    check_in_required = forms.BooleanField(
        required=False,
        label=_("Check-in required"),
        help_text=_("The draw takes the teams checked in only"),
    )
    substitutions_allowed = forms.IntegerField(
        min_value=0, max_value=SUBSTITUTIONS_MAX, label=_("Substitutions per team")
    )
    home_country = forms.CharField(
        max_length=60,
        required=False,  # left out: the USA for a new tournament, else unchanged
        label=_("Home country"),
        help_text=_(
            "Cities and states or regions place this country's teams; teams from "
            "elsewhere play in International (USA, India, …)"
        ),
        widget=forms.TextInput(attrs={"list": "countries"}),
    )
    time_zone = ZoneChoiceField(
        required=False,  # left out: the site's for a new tournament, else unchanged
        label=_("Time zone"),
        help_text=_(
            "Where the tournament is played: every time its pages, printouts and "
            "workbook show is in it"
        ),
    )
    published = forms.BooleanField(
        required=False, label=_("Published"), help_text=_("Everyone can see it")
    )
    rated = forms.BooleanField(
        required=False,
        label=_("Rated"),
        help_text=_(
            "Its matches count for the site's ratings once published: for a site "
            "administrator or a trusted creator to mark"
        ),
    )

    NUMBERS = ("players_per_team", "league_rounds", "league_deals", "qualifiers")

    def __init__(
        self,
        *args,
        rulesets=(),
        fixed: dict | None = None,
        creating: bool,
        may_rate: bool = False,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        if not may_rate:
            del self.fields["rated"]  # docs/ratings.md, "What the site trusts"
        self.fields["ruleset"].choices = [
            (r.code.value, ruleset_name(r.code)) for r in rulesets
        ]
        self.fields["time_zone"].choices = time_zone_choices(
            str(self.initial.get("time_zone") or "")
        )
        if creating:
            # The address it will get, shown as the name is typed (htmx asks the
            # create page again with ?name=; the page answers #address-preview).
            self.fields["name"].widget.attrs.update(
                {
                    "hx-get": reverse("tournament:create"),
                    "hx-trigger": "input changed delay:300ms",
                    "hx-select": "#address-preview",
                    "hx-target": "#address-preview",
                    "hx-swap": "outerHTML",
                    "hx-sync": "this:replace",
                }
            )
            # Left so, a new tournament takes its home country's zone where the
            # country has one (India: Kolkata), else the site's.
            zones = self.fields["time_zone"]
            own = ("", _("The home country's (else the site's)"))
            zones.choices = [own, *zones.choices]
        else:
            del self.fields["slug"]
        for name, step in (fixed or {}).items():
            field = self.fields[name]
            field.disabled = True
            field.help_text = FIXED_BY.get(step.code, f"Fixed: {step.done}")

    def changes(self) -> dict:
        """The settings to save: every field not fixed, an empty address, time
        zone or home country left out."""
        data = {
            name: value
            for name, value in self.cleaned_data.items()
            if not self.fields[name].disabled
        }
        for optional in ("slug", "time_zone", "home_country"):
            if not data.get(optional):
                data.pop(optional, None)
        return data
