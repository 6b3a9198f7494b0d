"""Pages: home, a tournament, its teams by section, and the organizer's registration
desk."""

from __future__ import annotations

import dataclasses

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods

from tournament.xlsx.uploads import upload_content, xlsx_limits

from . import services
from .accounts.selectors import may_create_tournaments, may_rate_tournament
from .domain.errors import RuleError, marked
from .domain.rulesets import RULESETS, RuleSetCode
from .domain.setup import fixed_settings
from .domain.types import Role
from .domain.zones import home_zone
from .forms import (
    COUNTRY_CHOICES,
    STATE_CHOICES,
    CheckInForm,
    ImportForm,
    MoveForm,
    SectionForm,
    TeamForm,
    TournamentForm,
)
from .models import Team, Tournament, site_time_zone
from .selectors import (
    check_in_counts,
    section_list,
    teams_by_section,
    tournament_address_free,
    tournament_list_visible,
)
from .signals import champions_get
from .spreadsheets import field_column, team_rows_read
from .web.pages import (
    form_errors,
    htmx_request,
    page_action,
    visible_tournament,
)
from .words import refusal, ruleset_name


def home(request: HttpRequest) -> HttpResponse:
    tournaments = list(tournament_list_visible(user=request.user))
    champions = champions_get(tournaments)  # a finished one names its champion
    for t in tournaments:
        t.champion = champions.get(t.pk)
    return render(
        request,
        "tournament/home.html",
        {
            "tournaments": tournaments,
            "may_create": may_create_tournaments(request.user),
        },
    )


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, roles = visible_tournament(request, slug)
    sections = list(section_list(tournament=tournament))
    tournament.team_count = sum(s.team_count for s in sections)
    return render(
        request,
        "tournament/detail.html",
        {
            "tournament": tournament,
            "roles": roles,
            "sections": sections,
            "ruleset": ruleset_name(tournament.ruleset),
            # every team is in a section: the sections' counts add up, no query more
            "playing": sum(s.playing_count for s in sections),
            "counted": services.counted(tournament),
            "champion": champions_get([tournament]).get(tournament.pk),
            "may_rate": request.user.is_authenticated
            and may_rate_tournament(request.user, tournament),
        },
    )


@require_http_methods(["POST"])
def tournament_rated_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A site administrator, or a trusted creator who organizes it, marks the
    tournament rated or not (docs/ratings.md, "What the site trusts")."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("tournament:detail", args=[slug]))
    tournament, _ = visible_tournament(request, slug)
    if not may_rate_tournament(request.user, tournament):
        raise PermissionDenied(
            gettext(
                "Only a site administrator, or a trusted creator who organizes it, "
                "counts a tournament for the ratings."
            )
        )
    rated = request.POST.get("rated") == "1"

    def act() -> str:
        services.tournament_update(
            tournament=tournament, user=request.user, rated=rated
        )
        if rated:
            return gettext("%(name)s counts for the ratings now.") % {
                "name": tournament.name
            }
        return gettext("%(name)s no longer counts for the ratings.") % {
            "name": tournament.name
        }

    return page_action(request, act, reverse("tournament:detail", args=[slug]))


def teams_by_section_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, roles = visible_tournament(request, slug)
    return render(
        request,
        "tournament/teams.html",
        {
            "tournament": tournament,
            "roles": roles,
            "groups": teams_by_section(tournament=tournament),
        },
    )


FORM_NAMES = ("team", "section", "import")  # the forms the page shows


class _Desk:
    """The registration desk's forms, and one handler per form's action.

    A handler gets a valid form, calls one service and returns the message to show; a
    `RuleError` from the service is shown on the form, field by field.
    """

    # Fields of the services' errors → fields of the forms, where the names differ.
    FIELDS = {
        "captain.name": "captain_name",
        "captain.city": "captain_city",
        "captain.state": "captain_state",
        "captain.country": "captain_country",
        "players": "player_2",
    }

    def __init__(self, request: HttpRequest, tournament: Tournament):
        self.tournament = tournament
        self.user = request.user
        self.teams = Team.objects.filter(tournament=tournament).order_by("name")
        posted = request.POST.get("action") if request.method == "POST" else None

        def bound(action: str) -> dict:  # only the posted form carries the input
            if action != posted:
                return {}
            return {"data": request.POST, "files": request.FILES}

        size, home = tournament.players_per_team, tournament.home_country
        self.forms = {
            "team": TeamForm(
                **bound("team"), players_per_team=size, home_country=home, prefix="team"
            ),
            "section": SectionForm(
                **bound("section"), home_country=home, prefix="section"
            ),
            "import": ImportForm(**bound("import"), prefix="import"),
            "move": MoveForm(**bound("move")),
            "check-in": CheckInForm(**bound("check-in")),
        }
        self.import_problems: list[services.ImportProblem] = []

    def handle(self, action: str) -> str | None:
        """The success message, or None when a shown form refused the input (its errors
        are on it). Refusals of the buttons without a form of their own (a move, a
        removal) are raised as a `RuleError` for the page to show as a message."""
        form = self.forms.get(action)
        shown = action in FORM_NAMES
        if form is None or not form.is_valid():
            if shown:
                return None
            raise RuleError(
                "invalid", marked("Choose what to change from the lists here.")
            )
        try:
            return getattr(self, "_" + action.replace("-", "_"))(form.cleaned_data)
        except RuleError as error:
            if not shown:
                raise
            form_errors(form, error, self.FIELDS)
            return None

    def _team(self, data) -> str:
        team = services.team_register(
            tournament=self.tournament,
            name=data["name"],
            captain={
                "name": data["captain_name"],
                "city": data["captain_city"],
                "state": data["captain_state"],
                "country": data["captain_country"],
            },
            players=self.forms["team"].players(),
        )
        return gettext("%(team)s is registered in section %(section)s.") % {
            "team": team.name,
            "section": team.section.shown_name,
        }

    def _section(self, data) -> str:
        form = self.forms["section"]
        section = services.section_create(
            tournament=self.tournament,
            name=data["name"],
            states=form.split("states"),
            cities=form.split("cities"),
        )
        return gettext("Section %(section)s is added.") % {"section": section.name}

    def _import(self, data) -> str:
        rows = team_rows_read(upload_content(data["file"]), xlsx_limits())
        try:
            imported = services.team_import(tournament=self.tournament, rows=rows)
        except services.TeamImportRefused as refused:
            size = self.tournament.players_per_team
            self.import_problems = [
                dataclasses.replace(
                    p,
                    field=field_column(p.field, size),
                    message=refusal(p.error) if p.error else p.message,
                )
                for p in refused.problems
            ]
            raise refused from None
        return ngettext(
            "%(count)s team is registered.",
            "%(count)s teams are registered.",
            len(imported),
        ) % {"count": len(imported)}

    def _check_in(self, data) -> str:
        team = get_object_or_404(self.teams, pk=data["team"])
        if data["arrived"]:
            services.team_check_in(team=team, user=self.user)
            return gettext("%(team)s is checked in.") % {"team": team.name}
        services.team_check_in_undo(team=team)
        return gettext("%(team)s is no longer checked in.") % {"team": team.name}

    def _move(self, data) -> str:
        team = get_object_or_404(self.teams, pk=data["team"])
        team = services.team_update(team=team, section_id=data["section"])
        return gettext("%(team)s now plays in %(section)s.") % {
            "team": team.name,
            "section": team.section.shown_name,
        }


# The registration page's actions done in place with htmx: each one's words in the
# context, and the flag of a refusal.
IN_PLACE = {
    "move": ("move_said", "move_refused"),
    "check-in": ("check_in_said", "check_in_refused"),
}


@require_http_methods(["GET", "POST"])
def registration(request: HttpRequest, slug: str) -> HttpResponse:
    """The organizer's desk: register or import teams, define sections, check teams
    in."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament, roles = visible_tournament(request, slug)
    if Role.ORGANIZER not in roles:
        raise PermissionDenied(
            gettext("Only the tournament's organizers run registration.")
        )
    desk = _Desk(request, tournament)
    moved: dict = {}
    action = request.POST.get("action", "")
    if request.method == "POST" and htmx_request(request) and action in IN_PLACE:
        # A move or a check-in asked with htmx: done in place, its part of the page
        # (#teams, #check-in) answered with what became of it, and the page stays
        # where it was.
        said, refused = IN_PLACE[action]
        try:
            moved[said] = desk.handle(action)
        except RuleError as error:
            moved.update({said: refusal(error), refused: True})
    elif request.method == "POST":
        answer = page_action(
            request,
            lambda: desk.handle(request.POST.get("action", "")),
            reverse("tournament:registration", args=[slug]),
        )
        if answer is not None:
            return answer
    sections = list(section_list(tournament=tournament))
    groups = teams_by_section(tournament=tournament)
    return render(
        request,
        "tournament/registration.html",
        {
            "tournament": tournament,
            "roles": roles,
            "sections": sections,
            "groups": groups,
            # the team list, by name, with each team's section beside it
            "teams": sorted(
                (team for _section, teams in groups for team in teams),
                key=lambda team: team.name.casefold(),
            ),
            "regions": sorted({r for s in sections for r in s.states}),
            **moved,
            "import_problems": desk.import_problems,
            "arrivals": check_in_counts(tournament=tournament),
            "states": STATE_CHOICES,
            "countries": COUNTRY_CHOICES,
            **{f"{name}_form": desk.forms[name] for name in FORM_NAMES},
        },
        status=400 if request.method == "POST" and not moved else 200,
    )


# A tournament's settings
# ----------------------------------------------------------------------------------


def _ruleset_defaults(code: str) -> dict:
    """The form's numbers for the rule set `code` (the international one when
    unknown)."""
    rules = RULESETS.get(code) or RULESETS[RuleSetCode.INTERNATIONAL]
    return {"ruleset": rules.code.value, **rules.numbers()}


@require_http_methods(["GET", "POST"])
def tournament_create_page(request: HttpRequest) -> HttpResponse:
    """A new tournament with its rule set's defaults, editable; its creator becomes
    its organizer. Choosing another rule set fills in that rule set's numbers (htmx
    asks this page again with `?ruleset=`)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not may_create_tournaments(request.user):
        raise PermissionDenied(
            gettext(
                "Creating tournaments is for the site's tournament creators: a site "
                "administrator invites you as one."
            )
        )
    initial = _ruleset_defaults(request.GET.get("ruleset", ""))
    initial["substitutions_allowed"] = Tournament.substitutions_allowed.field.default
    initial["time_zone"] = ""  # the home country's, else the site's
    typed = request.POST.get("name") or request.GET.get("name") or ""
    address = tournament_address_free(name=typed[:120]) if typed.strip() else ""
    initial["home_country"] = Tournament.home_country.field.default
    form = TournamentForm(
        request.POST if request.method == "POST" else None,
        initial=initial,
        rulesets=RULESETS.values(),
        creating=True,
        may_rate=may_rate_tournament(request.user),
    )
    if request.method == "POST" and form.is_valid():
        changes = form.changes()
        if "time_zone" not in changes:
            zone = home_zone(changes.get("home_country") or "")
            changes["time_zone"] = zone or site_time_zone()
        try:
            tournament = services.tournament_create(user=request.user, **changes)
        except RuleError as error:
            form_errors(form, error)
        else:
            messages.success(
                request,
                gettext(
                    "%(tournament)s is created and you are its organizer. Next: "
                    "sections and teams on the Registration tab, your scorers on "
                    "People."
                )
                % {"tournament": tournament.name},
            )
            return redirect("tournament:detail", slug=tournament.slug)
    return render(
        request,
        "tournament/settings.html",
        {
            "form": form,
            "creating": True,
            "rulesets": RULESETS.values(),
            "countries": COUNTRY_CHOICES,
            "address_preview": address,
        },
        status=400 if form.is_bound else 200,
    )


@require_http_methods(["GET", "POST"])
def tournament_settings_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The organizer edits the settings; one an earlier step fixed is shown with
    that step's name and cannot be changed."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament, roles = visible_tournament(request, slug)
    if Role.ORGANIZER not in roles:
        raise PermissionDenied(
            gettext("Only the tournament's organizers change its settings.")
        )
    fields = [f for f in TournamentForm.base_fields if f != "slug"]
    initial = {f: getattr(tournament, f) for f in fields}
    fixed = fixed_settings(tournament.status)
    if request.GET.get("ruleset") and "ruleset" not in fixed:  # htmx: another set
        initial |= _ruleset_defaults(request.GET["ruleset"])
    form = TournamentForm(
        request.POST if request.method == "POST" else None,
        initial=initial,
        rulesets=RULESETS.values(),
        fixed=fixed,
        creating=False,
        may_rate=may_rate_tournament(request.user, tournament),
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.tournament_update(
                tournament=tournament, user=request.user, **form.changes()
            )
        except RuleError as error:
            form_errors(form, error)
        else:
            messages.success(request, gettext("The settings are saved."))
            return redirect("tournament:settings", slug=slug)
    return render(
        request,
        "tournament/settings.html",
        {
            "form": form,
            "tournament": tournament,
            "roles": roles,
            "rulesets": RULESETS.values(),
            "countries": COUNTRY_CHOICES,
        },
        status=400 if form.is_bound else 200,
    )
