"""Forms of the score-sheet pages: the shape of the input only. The rules (value 28 to
56, a deal number within the match, who may enter a conduct penalty) are the
services', whose messages the pages show next to the field they name.
"""

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from tournament.domain.rulesets import RuleSet

from ..domain.auction import TEXT_MAX as AUCTION_TEXT_MAX
from ..domain.forfeits import absent_choices
from ..domain.rules import TRUMP_SYMBOLS, Level, PenaltyKind, Stage, Trump
from ..words import choices

TRUMPS = [(t.value, TRUMP_SYMBOLS[t]) for t in Trump]
LEVELS = [
    (Level.NONE.value, "—"),
    (Level.DOUBLED.value, "×2"),
    (Level.REDOUBLED.value, "×4"),
]


def penalty_kinds(rule_set: RuleSet, *, organizer: bool) -> list[tuple[str, str]]:
    """The kinds of penalty as the scorer chooses them, each with what it gives under
    the tournament's rule set (rules.md §3); conduct only for an organizer, who sets
    its points (a scorer offered it could only be refused)."""
    step = _("warning, then 1") if rule_set.warnings else "1"
    return [
        (
            PenaltyKind.OUT_OF_TURN.value,
            format_lazy(_("Bid, double or discard out of turn ({step})"), step=step),
        ),
        (
            PenaltyKind.LEAD_OUT_OF_TURN.value,
            format_lazy(_("Lead out of turn ({step})"), step=step),
        ),
        (PenaltyKind.REVIEW.value, _("Not all eight cards shown at the review (1)")),
        (PenaltyKind.KALLAKALI.value, _("Kallakali caught (deal + 3)")),
        (PenaltyKind.CARDINAL_RULE.value, _("Cardinal rule (deal + 3)")),
        (PenaltyKind.CONSTRAINING_HAND.value, _("Constraining hand (deal + 3)")),
    ] + (
        [
            (
                PenaltyKind.CONDUCT.value,
                format_lazy(
                    _("Conduct (0–{most}, organizer)"), most=rule_set.conduct_max
                ),
            )
        ]
        if organizer
        else []
    )


def _number(label, what, **attrs) -> forms.IntegerField:  # type: ignore[no-untyped-def]
    enter = format_lazy(_("Enter {what}."), what=what)
    return forms.IntegerField(
        label=label,
        error_messages={"required": enter, "invalid": enter},
        widget=forms.NumberInput(attrs={"inputmode": "numeric", **attrs}),
    )


class DealForm(forms.Form):
    number = _number(_("Deal"), _("the deal number"), min=1, max=99)
    declarer = forms.ChoiceField(
        label=_("Declarer"),
        widget=forms.RadioSelect,
        error_messages={"required": _("Choose the team that won the bidding.")},
    )
    value = _number(_("Bid"), _("the contract value, 28 to 56"), min=28, max=56)
    trump = forms.ChoiceField(
        label=_("Trump"),
        choices=TRUMPS,
        widget=forms.RadioSelect,
        error_messages={"required": _("Choose the trump (NT for no-trump).")},
    )
    level = forms.ChoiceField(
        label=_("Level"),
        choices=LEVELS,
        initial=Level.NONE.value,
        widget=forms.RadioSelect,
    )
    taken = _number(
        _("Declarer took"), _("the points the declarer took, 0 to 56"), min=0, max=56
    )
    bidder = forms.ChoiceField(
        label=_("Bidder (optional)"),
        required=False,
        widget=forms.RadioSelect,
        help_text=_("The declaring team's player who won the auction."),
    )
    auction = forms.CharField(
        label=_("Calls"),
        required=False,
        max_length=AUCTION_TEXT_MAX,
        help_text=_(
            "The lead player's team, then every call: A: 28S 30H P P X P P P P P"
        ),
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "placeholder": "A: 28S P P P P P",
            }
        ),
    )
    version = forms.IntegerField(widget=forms.HiddenInput)
    replacing = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(
        self,
        *args,
        sides: list[tuple[str, str]],
        levels: dict[str, str],
        roster: dict[str, list[str]] | None = None,
        **kw,
    ):
        super().__init__(*args, **kw)
        self.fields["declarer"].choices = sides
        # Each player of the match once, with his team's letter; the service checks
        # that he played for the declaring team.
        self.fields["bidder"].choices = [("", _("Not recorded"))] + [
            (name, f"{side} · {name}")
            for side, names in sorted((roster or {}).items())
            for name in names
        ]
        self.fields["level"].choices = [
            (v, levels.get(v, label)) for v, label in LEVELS
        ]


class PenaltyForm(forms.Form):
    deal = forms.TypedChoiceField(coerce=int, label=_("In deal"))
    offender = forms.ChoiceField(
        label=_("Offending team"),
        widget=forms.RadioSelect,
        error_messages={"required": _("Choose the team that offended.")},
    )
    kind = forms.ChoiceField(label=_("What happened"))
    points = forms.IntegerField(
        required=False,
        label=_("Points (conduct only)"),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 2}),
    )
    note = forms.CharField(max_length=300, required=False, label=_("Note"))
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(
        self,
        *args,
        sides: list[tuple[str, str]],
        deals: list[int],
        rule_set: RuleSet,
        organizer: bool,
        **kw,
    ):
        super().__init__(*args, **kw)
        self.fields["offender"].choices = sides
        self.fields["kind"].choices = penalty_kinds(rule_set, organizer=organizer)
        self.fields["points"].widget.attrs["max"] = rule_set.conduct_max
        self.fields["deal"].choices = [(n, str(n)) for n in deals]
        if deals:
            self.fields["deal"].initial = deals[-1]


class RowDeleteForm(forms.Form):
    """Delete a deal (`number`) or a penalty (`penalty`) at the sheet's version."""

    number = forms.IntegerField(required=False, widget=forms.HiddenInput)
    penalty = forms.IntegerField(required=False, widget=forms.HiddenInput)
    version = forms.IntegerField(widget=forms.HiddenInput)


class ConfirmForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput)


class TossForm(forms.Form):
    """The toss of a knockout tie-break (rules.md §6)."""

    winner = forms.ChoiceField(
        label=_("Toss won by"),
        widget=forms.RadioSelect,
        error_messages={
            "required": _("Choose the team whose captain pulled the higher card.")
        },
    )
    first_dealer = forms.ChoiceField(
        label=_("Deals first (the winner's choice)"),
        widget=forms.RadioSelect,
        error_messages={"required": _("Choose the team that deals the deciding deal.")},
    )
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, sides, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = sides
        self.fields["first_dealer"].choices = sides


class ReopenForm(forms.Form):
    reason = forms.CharField(
        max_length=500,
        label=_("Why reopen it"),
        error_messages={"required": _("Say why the sheet is reopened.")},
    )


class ForfeitForm(forms.Form):
    absent = forms.ChoiceField(
        label=_("Who did not come"),
        widget=forms.RadioSelect,
        error_messages={"required": _("Say which team did not come.")},
    )
    reason = forms.CharField(
        max_length=300,
        label=_("Why"),
        error_messages={"required": _("Say why the match is forfeited.")},
    )
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, match, **kwargs):
        super().__init__(*args, **kwargs)
        names = {"A": f"A · {match.team_a.name}", "B": f"B · {match.team_b.name}"}
        self.fields["absent"].choices = [
            (a.value, names.get(a.value, _("Both teams")))
            for a in absent_choices(knockout=match.stage == Stage.KNOCKOUT)
        ]


class DisputeForm(forms.Form):
    deal = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=99,
        label=_("Deal (leave empty for the whole match)"),
    )
    text = forms.CharField(
        max_length=2000,
        label=_("What is disputed"),
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": _("Say what is disputed.")},
    )


class RulingForm(forms.Form):
    dispute = forms.IntegerField(widget=forms.HiddenInput)
    ruling = forms.CharField(
        max_length=2000,
        label=_("Ruling"),
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": _("Write the ruling.")},
    )


class MatchForm(forms.Form):
    team_a = forms.TypedChoiceField(coerce=int, label=_("Team A"))
    team_b = forms.TypedChoiceField(coerce=int, label=_("Team B"))
    stage = forms.ChoiceField(
        choices=choices(Stage), initial=Stage.LEAGUE, label=_("Stage")
    )
    round = forms.IntegerField(min_value=1, max_value=50, initial=1, label=_("Round"))
    table = forms.IntegerField(min_value=1, max_value=999, label=_("Table"))
    deals_scheduled = forms.IntegerField(
        min_value=1, max_value=99, required=False, label=_("Deals")
    )

    def __init__(self, *args, teams, **kw):
        super().__init__(*args, **kw)
        choices = [("", "—")] + [(t.pk, f"{t.name} ({t.section.name})") for t in teams]
        self.fields["team_a"].choices = choices
        self.fields["team_b"].choices = choices
