"""Pages of people across tournaments (docs/ratings.md): the people list, and a
person's page with their rating over time, their teams, their figures as bidder and
their matches; an organizer hides a person there, a site administrator merges and
splits.

Interfaces only: each POST names an action, a form checks its shape, one service does
the work.
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from tournament.domain.errors import RuleError
from tournament.persons import services
from tournament.web.pages import page_action

from ..domain import ratings as rating
from . import selectors

PAGE_SIZE = 100


class SearchForm(forms.Form):
    q = forms.CharField(required=False, max_length=80, label=_("Name"))


class SuggestionForm(forms.Form):
    suggestion = forms.IntegerField(min_value=1)


@require_http_methods(["GET", "POST"])
def people_page(request: HttpRequest) -> HttpResponse:
    """Everyone who played in a tournament the visitor sees, by name; a search by a
    part of the name. A site administrator also sees the suggested matches
    (docs/ratings.md, "What the site trusts"), and accepts or dismisses each."""
    administer = selectors.may_administer_people(request.user)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not administer:
            raise PermissionDenied(
                gettext("Only the site's administrators merge and split people.")
            )
        answer = page_action(
            request,
            lambda: _suggestion_act(request),
            reverse("scoring:people"),
        )
        if answer is not None:
            return answer
    search = SearchForm(request.GET or None)
    q = search.cleaned_data["q"] if search.is_valid() else ""
    people = selectors.person_list(user=request.user, q=q)
    page = Paginator(people, PAGE_SIZE).get_page(request.GET.get("page"))
    rows = [(p, selectors.rating_of(getattr(p, "rating", None))) for p in page]
    return render(
        request,
        "scoring/people.html",
        {
            "search": search,
            "q": q,
            "page": page,
            "rows": rows,
            "suggestions": list(selectors.namesake_suggestions()[:SUGGESTIONS_SHOWN])
            if administer
            else [],
        },
        status=400 if search.is_bound and search.errors else 200,
    )


SUGGESTIONS_SHOWN = 50


def _suggestion_act(request) -> str:
    """A site administrator's answer to a suggested match: the same person, or two."""
    form = SuggestionForm(request.POST)
    found = (
        selectors.namesake_suggestions()
        .filter(pk=form.cleaned_data["suggestion"])
        .first()
        if form.is_valid()
        else None
    )
    if found is None:
        raise RuleError(
            "no_suggestion",
            gettext("That suggested match is answered already; look again."),
        )
    action = request.POST.get("action")
    if action == "accept":
        person = services.namesake_accept(suggestion=found, user=request.user)
        return gettext("The two are one person now: %(name)s; the ratings follow.") % {
            "name": str(person)
        }
    if action == "dismiss":
        services.namesake_dismiss(suggestion=found)
        return gettext("Kept as two people: %(name)s and %(other)s.") % {
            "name": str(found.namesake),
            "other": str(found.person),
        }
    raise RuleError("invalid", gettext("Choose what to change from the page."))


@dataclass(frozen=True)
class Chart:
    """The rating after each match as a line: its points in the SVG's box."""

    width: int
    height: int
    points: str
    low: int
    high: int
    first: int
    last: int

    @property
    def description(self) -> str:
        return gettext(
            "From %(first)s to %(last)s over the matches rated; lowest %(low)s, "
            "highest %(high)s."
        ) % {"first": self.first, "last": self.last, "low": self.low, "high": self.high}


def rating_chart(displays: list[int], width: int = 600, height: int = 120) -> Chart:
    """The line of a rating over its matches, starting from a newcomer's 1000."""
    values = [rating.DISPLAY_BASE, *displays]
    low, high = min(values), max(values)
    span = max(high - low, 1)
    steps = max(len(values) - 1, 1)
    xs = [round(i * width / steps, 1) for i in range(len(values))]
    ys = [round(4 + (height - 8) * (high - v) / span, 1) for v in values]
    points = " ".join(f"{x},{y}" for x, y in zip(xs, ys, strict=True))
    return Chart(width, height, points, low, high, values[0], values[-1])


class SplitForm(forms.Form):
    players = forms.TypedMultipleChoiceField(
        coerce=int, label=_("Players"), widget=forms.CheckboxSelectMultiple
    )


class MergeForm(forms.Form):
    other = forms.IntegerField(
        min_value=1,
        label=_("Person to merge in"),
        help_text=_("The number at the end of their page's address."),
    )


@require_http_methods(["GET", "POST"])
def person_page(request: HttpRequest, pk: int) -> HttpResponse:
    if request.method == "POST" and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    person = selectors.person_get(user=request.user, pk=pk)
    if person is None:
        raise Http404("No such person")
    seats = selectors.person_seats(user=request.user, person=person)
    administer = selectors.may_administer_people(request.user)
    hide = selectors.may_hide(request.user, person)
    action = request.POST.get("action") if request.method == "POST" else None
    split = SplitForm(request.POST if action == "split" else None)
    split.fields["players"].choices = [
        (s.seat, f"{s.tournament.name} · {s.team_name}") for s in seats
    ]
    merge = MergeForm(request.POST if action == "merge" else None)
    if action is not None:
        here = reverse("scoring:person", args=[person.pk])
        answer = page_action(
            request,
            lambda: _act(request, action, person, split, merge, administer, hide),
            here,
        )
        if answer is not None:
            return answer
    history = selectors.rating_history(user=request.user, person=person)
    kallakali = selectors.person_kallakali(history)
    figure = selectors.rating_of(getattr(person, "rating", None))
    return render(
        request,
        "scoring/person.html",
        {
            "person": person,
            "rating": figure,
            "seats": seats,
            "figures": selectors.person_statistics(seats=seats),
            "kallakali": kallakali,
            "history": list(reversed(history)),
            "chart": rating_chart([s.rating.display for s in history])
            if history
            else None,
            "changes": list(selectors.person_changes(person=person)),
            "may_hide": hide,
            "administer": administer,
            "split_form": split,
            "merge_form": merge,
        },
        status=400 if action is not None else 200,
    )


def _act(request, action, person, split, merge, administer, hide) -> str | None:
    """The message of a done action; None when a form shows its errors."""
    if action in ("hide", "show"):
        if not hide:
            raise PermissionDenied(
                gettext(
                    "Only a site administrator, or an organizer of a tournament this "
                    "person plays in, hides a person."
                )
            )
        services.person_hide(person=person, hidden=action == "hide")
        if action == "hide":
            return gettext("%(name)s is hidden from the public lists.") % {
                "name": person.name
            }
        return gettext("%(name)s is shown in the public lists again.") % {
            "name": person.name
        }
    if action in ("merge", "split"):
        if not administer:
            raise PermissionDenied(
                gettext("Only the site's administrators merge and split people.")
            )
        if action == "merge":
            if not merge.is_valid():
                return None
            services.person_merge(
                person=person, other=merge.cleaned_data["other"], user=request.user
            )
            return gettext("The two are one person now; the ratings follow.")
        if not split.is_valid():
            return None
        made = services.person_split(
            person=person, players=split.cleaned_data["players"], user=request.user
        )
        return gettext("Those players are a person of their own now: %(url)s") % {
            "url": reverse("scoring:person", args=[made.pk])
        }
    raise RuleError("invalid", gettext("Choose what to change from the page."))
