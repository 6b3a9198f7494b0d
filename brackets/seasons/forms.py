"""The season form of the seasons page: shape only; the rules are in the service."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.domain.errors import RuleError
from tournament.words import refusal

from ..domain.seasons import points_read


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=120, label=_("Name"))
    tournaments = forms.MultipleChoiceField(
        label=_("Tournaments"), widget=forms.CheckboxSelectMultiple
    )
    points = forms.CharField(
        required=False,
        max_length=2000,
        label=_("Points by final place"),
        help_text=_(
            "“place: points” pairs, such as 1: 100, 2: 75, 5: 40 (from place 5 on, "
            "40); empty for the default table."
        ),
    )

    def clean_points(self) -> dict[int, int] | None:
        text = self.cleaned_data["points"].strip()
        if not text:
            return None
        pairs = []
        for pair in text.replace(";", ",").replace("\n", ",").split(","):
            if not pair.strip():
                continue
            place, colon, points = pair.partition(":")
            if not colon:
                raise forms.ValidationError(
                    _("Write each pair as place: points, such as 1: 100.")
                )
            pairs.append((place, points))
        try:
            return points_read(pairs)  # the digits 0 to 9, each place once
        except RuleError as error:
            said = refusal(error)
            if error.code == "not_whole_number":
                said = (
                    f"{_('Write each pair as place: points, such as 1: 100.')} {said}"
                )
            raise forms.ValidationError(said) from None
