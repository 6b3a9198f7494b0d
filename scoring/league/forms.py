"""Forms of the league's pages: the draw's seed, releasing rounds, drawing lots, and
the standings' section filter. The shape of the input only; the rules are the
services'.
"""

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


def _seed_field(help_text: str) -> forms.IntegerField:
    return forms.IntegerField(
        label=_("Seed (optional)"),
        required=False,
        min_value=0,
        max_value=2**63 - 1,
        help_text=help_text,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class DrawForm(forms.Form):
    seed = _seed_field(
        _("Leave empty for a random seed; the same seed gives the same draw.")
    )


class ReleaseForm(forms.Form):
    round = forms.IntegerField(min_value=1, required=False, label=_("Round"))


class LotForm(forms.Form):
    seed = _seed_field(_("Leave empty for a random seed; it is recorded either way."))


class SectionFilterForm(forms.Form):
    section = forms.TypedChoiceField(
        label=_("Section"), required=False, coerce=int, empty_value=None
    )

    def __init__(self, *args, sections, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["section"].choices = [("", _("All sections"))] + [
            (s.pk, s.shown_name) for s in sections
        ]


class WithdrawForm(forms.Form):
    from_round = forms.IntegerField(
        min_value=1,
        max_value=50,
        label=_("From round"),
        error_messages={"required": _("Say from which round the team is withdrawn.")},
    )
    reason = forms.CharField(
        max_length=300,
        label=_("Why"),
        error_messages={"required": _("Say why the team is withdrawn.")},
    )


class SubstituteForm(forms.Form):
    out = forms.CharField(max_length=80, label=_("Player who leaves"))
    into = forms.CharField(max_length=80, label=_("Player who comes in"))
    from_round = forms.IntegerField(min_value=1, max_value=50, label=_("From round"))
    stage = forms.ChoiceField(
        choices=[
            ("league", pgettext_lazy("stage", "League")),
            ("knockout", pgettext_lazy("stage", "Knockout")),
        ],
        initial="league",
        label=_("Stage"),
    )
    reason = forms.CharField(max_length=300, label=_("Why"))
