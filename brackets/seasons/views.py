"""Pages of seasons and of the ratings (docs/ratings.md): the ratings list, sortable
and filtered by season; the seasons, made on their page by a site administrator; a
season's standings of players and teams.

Interfaces only: each POST names an action, a form checks its shape, one service does
the work.
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from scoring.ratings.selectors import may_administer_people, rating_list
from tournament.domain.errors import RuleError
from tournament.domain.types import TournamentStatus
from tournament.selectors import tournament_list_visible
from tournament.web.pages import form_errors, page_action

from . import selectors, services
from .forms import SeasonForm

PAGE_SIZE = 100  # people a page of the ratings
SORTS = {
    "rating": lambda row: (row.rank,),
    "name": lambda row: (row.person.name.casefold(), row.person.pk),
    "matches": lambda row: (-row.rating.matches, row.rank),
}


def _no_such_season(request: HttpRequest, slug: str) -> HttpResponse:
    """The site's 404 page, saying that the season is what is missing."""
    missing = gettext(
        "There is no season “%(slug)s”: the ratings page lists the seasons there are."
    ) % {"slug": slug}
    context = {
        "missing": missing,
        "missing_link": reverse("brackets:ratings"),
        "missing_link_words": gettext("Ratings"),
    }
    return render(request, "404.html", context, status=404)


def ratings_page(request: HttpRequest) -> HttpResponse:
    """Everyone with a rated match, best first; a season keeps its players."""
    seasons = list(selectors.season_list())
    chosen = request.GET.get("season") or ""
    season = next((s for s in seasons if s.slug == chosen), None)
    if chosen and season is None:
        return _no_such_season(request, chosen)
    tournaments = None
    if season is not None:
        tournaments = [t.pk for t in selectors.season_tournaments(season, request.user)]
    sort = request.GET.get("sort") or "rating"
    rows = rating_list(user=request.user, tournaments=tournaments)
    rows.sort(key=SORTS.get(sort, SORTS["rating"]))
    # A page at a time (the ranks are the whole list's): a federation's site rates
    # thousands.
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "brackets/ratings.html",
        {
            "rows": page.object_list,
            "page": page,
            "seasons": seasons,
            "season": season,
            "sort": sort if sort in SORTS else "rating",
        },
    )


@require_http_methods(["GET", "POST"])
def seasons_page(request: HttpRequest) -> HttpResponse:
    """The seasons; a site administrator makes one here."""
    if request.method == "POST" and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    administer = may_administer_people(request.user)
    form = None
    if administer:
        form = _season_form(request, request.POST if request.method == "POST" else None)
    if request.method == "POST":
        if form is None:
            raise PermissionDenied(
                gettext("Only the site's administrators make seasons.")
            )
        answer = page_action(
            request, lambda: _make(request, form), reverse("brackets:seasons")
        )
        if answer is not None:
            return answer
    seasons = [
        (s, selectors.season_tournaments(s, request.user))
        for s in selectors.season_list()
    ]
    return render(
        request,
        "brackets/seasons.html",
        {"seasons": seasons, "form": form},
        status=400 if request.method == "POST" else 200,
    )


def _make(request, form: SeasonForm) -> str | None:
    if not form.is_valid():
        return None
    try:
        season = services.season_create(user=request.user, **form.cleaned_data)
    except RuleError as error:
        form_errors(form, error)
        return None
    return gettext("The season %(name)s is made.") % {"name": season.name}


def _season_form(request: HttpRequest, data=None, initial=None) -> SeasonForm:
    form = SeasonForm(data, initial=initial)
    form.fields["tournaments"].choices = [
        (t.slug, t.name)
        for t in tournament_list_visible(user=request.user).exclude(
            status=TournamentStatus.REGISTRATION
        )
    ]
    return form


def _change(season, form: SeasonForm) -> str | None:
    if not form.is_valid():
        return None
    try:
        services.season_update(season=season, **form.cleaned_data)
    except RuleError as error:
        form_errors(form, error)
        return None
    return gettext("The season %(name)s is changed.") % {
        "name": form.cleaned_data["name"]
    }


@require_http_methods(["GET", "POST"])
def season_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A season's standings of players and of teams, points per tournament; a site
    administrator changes its name, tournaments or table here."""
    if request.method == "POST" and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    season = selectors.season_get(slug=slug)
    if season is None:
        return _no_such_season(request, slug)
    form = None
    if may_administer_people(request.user):
        table = ", ".join(
            f"{place}: {points}" for place, points in season.points.items()
        )
        form = _season_form(
            request,
            request.POST if request.method == "POST" else None,
            initial={
                "name": season.name,
                "tournaments": [t.slug for t in season.tournaments.all()],
                "points": table,
            },
        )
    if request.method == "POST":
        if form is None:
            raise PermissionDenied(
                gettext("Only the site's administrators change seasons.")
            )
        here = reverse("brackets:season", args=[season.slug])
        answer = page_action(request, lambda: _change(season, form), here)
        if answer is not None:
            return answer
    found = selectors.season_standings_get(season=season, user=request.user)
    return render(
        request,
        "brackets/season.html",
        {
            "season": season,
            "found": found,
            "form": form,
            "players": [
                (
                    row,
                    found.cities.get(row.key, ""),
                    [row.points.get(t.slug) for t in found.tournaments],
                )
                for row in found.players
            ],
            "teams": [
                (
                    row,
                    found.team_cities.get(row.key, ""),
                    [row.points.get(t.slug) for t in found.tournaments],
                )
                for row in found.teams
            ],
        },
    )
