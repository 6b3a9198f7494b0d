"""Pages: home, a tournament, its teams by section, and the organizer's registration
desk."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from . import services
from .domain.errors import RuleError, RuleErrors
from .domain.types import Role
from .forms import (
    STATE_CHOICES,
    ImportForm,
    MemberForm,
    MoveForm,
    SectionForm,
    TeamForm,
)
from .models import Membership, Section, Team, Tournament
from .selectors import (
    membership_list,
    section_list,
    teams_by_section,
    tournament_get_visible,
    tournament_list_visible,
    tournament_roles,
)
from .spreadsheets import team_rows_read


def _tournament(request: HttpRequest, slug: str) -> tuple[Tournament, frozenset[Role]]:
    tournament = tournament_get_visible(user=request.user, slug=slug)
    if tournament is None:
        raise Http404("No such tournament")
    return tournament, tournament_roles(user=request.user, tournament=tournament)


def home(request: HttpRequest) -> HttpResponse:
    tournaments = list(tournament_list_visible(user=request.user))
    return render(request, "tournament/home.html", {"tournaments": tournaments})


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, roles = _tournament(request, slug)
    sections = list(section_list(tournament=tournament))
    return render(
        request,
        "tournament/detail.html",
        {"tournament": tournament, "roles": roles, "sections": sections},
    )


def teams_by_section_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, roles = _tournament(request, slug)
    return render(
        request,
        "tournament/teams.html",
        {
            "tournament": tournament,
            "roles": roles,
            "groups": teams_by_section(tournament=tournament),
        },
    )


def _form_errors(form, error: RuleError, field_map: dict[str, str]) -> None:
    """Show a rule error on the form field it names (or on the form)."""
    items = error.errors if isinstance(error, RuleErrors) else [error]
    for item in items:
        field = field_map.get(item.field or "")
        form.add_error(field if field in form.fields else None, item.message)


_TEAM_FIELDS = {
    "name": "name",
    "captain.name": "captain_name",
    "captain.city": "captain_city",
    "captain.state": "captain_state",
    "captain.country": "captain_country",
    "players": "player_2",
}


@require_http_methods(["GET", "POST"])
def registration(request: HttpRequest, slug: str) -> HttpResponse:
    """The organizer's desk: register or import teams, define sections, move teams."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament, roles = _tournament(request, slug)
    if Role.ORGANIZER not in roles:
        raise PermissionDenied("Only the tournament's organizers run registration.")
    size = tournament.players_per_team
    team_form = TeamForm(players_per_team=size, prefix="team")
    section_form = SectionForm(prefix="section")
    import_form = ImportForm(prefix="import")
    teams = (
        Team.objects.filter(tournament=tournament).order_by("name").only("pk", "name")
    )
    member_form = MemberForm(prefix="member", teams=teams)
    import_problems = []
    action = request.POST.get("action")
    if request.method == "POST":
        try:
            if action == "team":
                team_form = TeamForm(request.POST, players_per_team=size, prefix="team")
                if team_form.is_valid():
                    data = team_form.cleaned_data
                    team = services.team_register(
                        tournament=tournament,
                        name=data["name"],
                        captain={
                            "name": data["captain_name"],
                            "city": data["captain_city"],
                            "state": data["captain_state"],
                            "country": data["captain_country"],
                        },
                        players=team_form.players(),
                    )
                    messages.success(
                        request,
                        f"{team.name} is registered in section {team.section.name}.",
                    )
                    return redirect("tournament:registration", slug=slug)
            elif action == "section":
                section_form = SectionForm(request.POST, prefix="section")
                if section_form.is_valid():
                    section = services.section_create(
                        tournament=tournament,
                        name=section_form.cleaned_data["name"],
                        states=section_form.split("states"),
                        cities=section_form.split("cities"),
                    )
                    messages.success(request, f"Section {section.name} is added.")
                    return redirect("tournament:registration", slug=slug)
            elif action == "import":
                import_form = ImportForm(request.POST, request.FILES, prefix="import")
                if import_form.is_valid():
                    rows = team_rows_read(import_form.cleaned_data["file"].read())
                    try:
                        teams = services.team_import(tournament=tournament, rows=rows)
                    except services.TeamImportRefused as refused:
                        import_problems = refused.problems
                        import_form.add_error(None, refused.message)
                    else:
                        messages.success(request, f"{len(teams)} teams are registered.")
                        return redirect("tournament:registration", slug=slug)
            elif action == "member":
                member_form = MemberForm(request.POST, prefix="member", teams=teams)
                if member_form.is_valid():
                    data = member_form.cleaned_data
                    team = (
                        teams.filter(pk=data["team"]).first() if data["team"] else None
                    )
                    membership = services.membership_create(
                        tournament=tournament,
                        username=data["username"],
                        password=data["password"] or None,
                        role=data["role"],
                        team=team,
                    )
                    messages.success(
                        request, f"{membership.user.username} is {membership.role} now."
                    )
                    return redirect("tournament:registration", slug=slug)
            elif action == "member-remove":
                membership = Membership.objects.filter(
                    tournament=tournament, pk=request.POST.get("membership")
                ).first()
                if membership is None:
                    raise Http404("No such role")
                services.membership_delete(membership=membership)
                messages.success(
                    request, f"{membership.user.username} is no {membership.role} now."
                )
                return redirect("tournament:registration", slug=slug)
            elif action == "move":
                move = MoveForm(request.POST)
                if move.is_valid():
                    team = Team.objects.filter(
                        tournament=tournament, pk=move.cleaned_data["team"]
                    ).first()
                    section = Section.objects.filter(
                        tournament=tournament, pk=move.cleaned_data["section"]
                    ).first()
                    if team is None or section is None:
                        raise Http404("No such team or section")
                    services.team_update(team=team, section=section)
                    messages.success(
                        request, f"{team.name} now plays in {section.name}."
                    )
                    return redirect("tournament:registration", slug=slug)
                messages.error(request, "Choose a team and a section to move it to.")
        except RuleError as error:
            if action == "team":
                _form_errors(team_form, error, _TEAM_FIELDS)
            elif action == "section":
                _form_errors(
                    section_form,
                    error,
                    {"name": "name", "states": "states", "cities": "cities"},
                )
            elif action == "import":
                _form_errors(import_form, error, {"file": "file"})
            elif action == "member":
                _form_errors(member_form, error, {f: f for f in member_form.fields})
            else:
                messages.error(request, error.message)
    sections = list(section_list(tournament=tournament))
    return render(
        request,
        "tournament/registration.html",
        {
            "tournament": tournament,
            "roles": roles,
            "sections": sections,
            "groups": teams_by_section(tournament=tournament),
            "team_form": team_form,
            "section_form": section_form,
            "import_form": import_form,
            "import_problems": import_problems,
            "member_form": member_form,
            "members": membership_list(tournament=tournament),
            "states": STATE_CHOICES,
        },
        status=400 if request.method == "POST" else 200,
    )
