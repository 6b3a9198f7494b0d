"""The bracket page: everyone reads it; organizers seed the knockout from it."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers

from scoring.league.selectors import league_progress
from tournament.domain.errors import RuleError
from tournament.domain.types import Role, TournamentStatus
from tournament.selectors import teams_playing_count
from tournament.web.pages import htmx_request, visible_tournament
from tournament.words import refusal

from . import services
from .domain.seeding import qualifiers_offered
from .forms import KnockoutForm
from .selectors import bracket_get, final_places_get

# A tournament whose knockout is seeded: the form and the teams' count are behind it.
SEEDED = frozenset({TournamentStatus.KNOCKOUT, TournamentStatus.FINISHED})


@require_http_methods(["GET", "HEAD", "POST"])
@vary_on_headers("HX-Request")
def bracket_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The knockout as round columns: seeds, byes, scores, tie-break marks, the
    final's games and the podium; readable on a phone, printable. It refreshes
    itself while the knockout is played."""
    tournament, roles = visible_tournament(request, slug)
    # Before the seeding, the teams that can play on: the most that can qualify,
    # and so the most the form offers.
    playing = (
        None
        if tournament.status in SEEDED
        else teams_playing_count(tournament=tournament)
    )
    form = KnockoutForm(
        initial={"qualifiers": qualifiers_offered(tournament.qualifiers, playing)}
    )
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if Role.ORGANIZER not in roles:
            raise PermissionDenied(
                gettext("Only the tournament's organizers seed the knockout.")
            )
        form = KnockoutForm(request.POST)
        if form.is_valid():
            try:
                services.knockout_seed(
                    tournament=tournament,
                    user=request.user,
                    qualifiers=form.cleaned_data["qualifiers"],
                    deals=form.stage_deals(),
                )
            except RuleError as error:
                form.add_error(
                    error.field if error.field in form.fields else None, refusal(error)
                )
            else:
                messages.success(
                    request, gettext("The knockout is seeded from the final standings.")
                )
                return redirect("brackets:bracket", slug=slug)
    view = bracket_get(tournament=tournament)
    context = {
        "places": (
            final_places_get(tournament=tournament, view=view) if view else None
        ),
        "tournament": tournament,
        "roles": roles,
        "bracket": view,
        "form": form,
        "progress": league_progress(tournament=tournament) if view is None else None,
        "playing": playing if view is None else None,
        "live": view is not None and tournament.status == TournamentStatus.KNOCKOUT,
        "poll": settings.STANDINGS_POLL_SECONDS,
    }
    if htmx_request(request):
        return render(request, "brackets/_bracket.html", context)
    return render(
        request, "brackets/bracket.html", context, status=400 if form.errors else 200
    )
