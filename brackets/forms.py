"""The organizer's knockout form: the shape of the input only; the rules (qualifiers
2..256, deals 1..96, a final league) are the service's."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .domain import seeding


def _deals(label: str, default: int) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        min_value=1,
        max_value=seeding.STAGE_DEALS_MAX,
        initial=default,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class KnockoutForm(forms.Form):
    qualifiers = forms.IntegerField(
        label=_("Qualifiers"),
        min_value=seeding.QUALIFIERS_MIN,
        max_value=seeding.QUALIFIERS_MAX,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    early = _deals(_("Rounds before the quarter-finals"), seeding.DEALS_DEFAULT)
    quarter_final = _deals(_("Quarter-finals"), seeding.DEALS_DEFAULT)
    semi_final = _deals(_("Semi-finals"), seeding.DEALS_DEFAULTS["semi_final"])
    second_runner_up = _deals(
        _("Second runner-up match"), seeding.DEALS_DEFAULTS[seeding.SECOND_RUNNER_UP]
    )
    final = _deals(_("Each game of the final"), seeding.DEALS_DEFAULTS["final"])

    def stage_deals(self) -> dict[str, int]:
        """The deals of every stage the chosen bracket has."""
        data = self.cleaned_data
        return {
            key: data["early"] if key.startswith("round_of_") else data[key]
            for key in seeding.stage_keys(data["qualifiers"])
        }
