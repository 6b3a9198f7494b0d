"""Every endpoint and every page × every role: allowed or refused, as the table says.

Roles: anonymous, a logged-in user with no role (outsider), the scorer of another
tournament, the captain of a team not in the match, the captain of a team in it, the
tournament's scorer and its organizer; a tournament creator and a site administrator
(no role in the tournament: where a row does not name them, they are answered as an
outsider is); and two links with no account (docs/links.md):
table 1's link (`Authorization: Link <key>`), whose only sheet is the played match,
and the Aces' team link. A link reaches what it names and nothing else: any other
write is refused with 403, and a page that needs a login sends it to log in. Each
call runs in a savepoint that is rolled back, so every role meets the same world; a
refused call must leave every row as it was. `test_the_table_names_every_route`
fails when a route is added without a row here. The unpublished tournament's tests
show it leaks nothing to outsiders: not by
slug, id, list, search, history, export or schema.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.apps import apps
from django.db import transaction
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from rest_framework.test import APIClient

from brackets.models import Season
from scoring.links.services import links_ensure
from scoring.models import ExportJob, Match, Penalty
from scoring.sheets import day, services
from tests.factories import (
    SectionFactory,
    TeamFactory,
    TournamentFactory,
    UserFactory,
    member,
)
from tests.scoring.conftest import deal_body
from tournament.accounts.services import (
    invitation_create,
    site_invitation_create,
    site_role_grant,
)
from tournament.backups.services import backup_take
from tournament.domain.types import Role
from tournament.models import Link, LinkKind, NamesakeSuggestion, Seat

pytestmark = pytest.mark.django_db

ROLES = [
    "anonymous",
    "outsider",
    "scorer_elsewhere",
    "captain_other_team",
    "captain",
    "scorer",
    "organizer",
    "table_link",
    "team_link",
    "creator",
    "site_admin",
]
SITE = {"creator", "site_admin"}  # the site's standing, no role in the tournament
STAFF = {"scorer", "organizer"}
LINKS = {"table_link", "team_link"}
SIGNED_IN = [r for r in ROLES[1:] if r not in LINKS]


@pytest.fixture
def world(db):
    t = TournamentFactory(slug="open", published=True, league_rounds=2)
    elsewhere = TournamentFactory(slug="elsewhere", published=True)
    tri = SectionFactory(tournament=t, name="Tri-State", states=["NJ", "NY"])
    chicago = SectionFactory(tournament=t, name="Chicago", cities=["Chicago"])
    spare = SectionFactory(tournament=t, name="Spare", states=["TX"])
    aces = TeamFactory(section=tri, name="Aces")
    kings = TeamFactory(section=tri, name="Kings")
    jacks = TeamFactory(section=chicago, name="Jacks")
    queens = TeamFactory(section=chicago, name="Queens")
    organizer = member(t, Role.ORGANIZER, "org")
    creator = UserFactory(username="creator")
    site_role_grant(user=creator, role="creator")
    site_admin = UserFactory(username="site_admin")
    site_role_grant(user=site_admin, role="administrator")
    users = {
        "anonymous": None,
        "outsider": UserFactory(username="outsider"),
        "scorer_elsewhere": member(elsewhere, Role.SCORER, "scorer_elsewhere"),
        "captain_other_team": member(t, Role.CAPTAIN, "cap_queens", team=queens),
        "captain": member(t, Role.CAPTAIN, "cap_aces", team=aces),
        "scorer": member(t, Role.SCORER, "scorer"),
        "organizer": organizer,
        "creator": creator,
        "site_admin": site_admin,
    }
    played = services.match_create(
        tournament=t, user=organizer, team_a=aces.pk, team_b=jacks.pk, round=1, table=1
    )
    for number in range(1, 19):
        services.score_sheet_deal_record(
            match_id=played.pk, user=organizer, version=None, **deal_body(number)
        )
    services.score_sheet_penalty_record(
        match_id=played.pk,
        user=organizer,
        version=None,
        deal=2,
        offender="A",
        kind="out_of_turn",
        by_organizer=True,
    )
    empty = services.match_create(
        tournament=t,
        user=organizer,
        team_a=kings.pk,
        team_b=queens.pk,
        round=1,
        table=2,
    )
    disputed = services.match_create(
        tournament=t,
        user=organizer,
        team_a=aces.pk,
        team_b=queens.pk,
        round=2,
        table=5,
    )
    dispute = day.score_sheet_dispute_raise(
        match_id=disputed.pk,
        user=organizer,
        text="the table started late",
        roles=frozenset({Role.ORGANIZER}),
        sides=frozenset(),
    )
    links_ensure(tournament=t, tables=5)
    table_key = Link.objects.get(tournament=t, kind=LinkKind.TABLE, table=1).key
    team_key = Link.objects.get(kind=LinkKind.TEAM, team=aces).key
    job = ExportJob.objects.create(tournament=t, total=2)
    done = ExportJob.objects.create(
        tournament=t,
        status="done",
        content=b"PK",
        size=2,
        total=2,
        progress=2,
        finished_at=timezone.now(),
    )
    # People across tournaments: an Aces player, and a player of another
    # tournament to merge him with; a season of both (docs/ratings.md).
    abroad = TeamFactory(
        section=SectionFactory(tournament=elsewhere, name="Abroad"), name="Rovers"
    )
    aces_seat = Seat.objects.get(team=aces, name=aces.captain_name)
    # A namesake of his in a tournament not rated: a suggested match.
    unrated = TournamentFactory(slug="unrated", published=True, rated=False)
    TeamFactory(
        section=SectionFactory(tournament=unrated),
        captain_name=aces.captain_name,
        captain_city=aces.captain_city,
    )
    TournamentFactory(slug="past", published=True, status="finished")
    season = Season.objects.create(name="Season", slug="season", points={"1": 10})
    season.tournaments.set([t, elsewhere])
    return {
        "users": users,
        "links": {"table_link": table_key, "team_link": team_key},
        "ids": {
            "table_key": table_key,
            "team_key": team_key,
            "slug": "open",
            "played": played.pk,
            "empty": empty.pk,
            "version": Match.objects.get(pk=played.pk).version,
            "penalty": Penalty.objects.get(deal__match=played).pk,
            "job": job.pk,
            "done": done.pk,
            "spare": spare.pk,
            "team": kings.pk,
            "aces": aces.pk,
            "aces_captain": aces.captain_name,
            "jacks": jacks.pk,
            "member": users["scorer"].memberships.get().pk,
            "backup": backup_take(tournament=t, reason="test").pk,
            "disputed": disputed.pk,
            "dispute_id": dispute.pk,
            "empty_version": Match.objects.get(pk=empty.pk).version,
            "invitation_key": invitation_create(
                tournament=t, user=organizer, role=Role.SCORER
            ).key,
            "creator_id": creator.pk,
            "person": aces_seat.person_id,
            "person_seat": aces_seat.pk,
            "person_abroad": Seat.objects.filter(team=abroad).first().person_id,
            "suggestion": NamesakeSuggestion.objects.get().pk,
            "season": "season",
            "site_invitation": site_invitation_create(
                user=site_admin, role="creator"
            ).invitation.pk,
            "site_invitation_key": site_invitation_create(
                user=site_admin, role="administrator"
            ).key,
        },
    }


def _state() -> list:
    """Every row of the project's tables (the world is small)."""
    return [
        [
            {k: v for k, v in row.items() if k != "last_login"}  # set by logging in
            for row in model._default_manager.order_by("pk").values()
        ]
        for model in apps.get_models()
        if model._meta.app_label in ("tournament", "scoring", "brackets", "auth")
    ]


@dataclass
class Case:
    name: str  # the URL name
    method: str
    kwargs: dict[str, str]  # URL kwargs, names of world ids or literal values
    ok: dict[str, int]  # the answer for each allowed role
    body: Any = None
    query: str = ""
    page: bool = False
    refused: dict[str, int] = field(default_factory=dict)  # exceptions to the default

    def expected(self, role: str) -> int:
        if role in self.ok:
            return self.ok[role]
        if role in SITE and role not in self.refused:
            role = "outsider"  # in a tournament, the site's standing is no role
            if role in self.ok:
                return self.ok[role]
        if self.page and role in LINKS:
            role = "anonymous"  # a page knows a link only by its own address
        if role in self.refused:
            return self.refused[role]
        if role == "anonymous":
            return 302 if self.page else 401
        return 403


def everyone(code: int = 200) -> dict[str, int]:
    return dict.fromkeys(ROLES, code)


def staff(code: int = 200, organizer: int | None = None) -> dict[str, int]:
    return {"scorer": code, "organizer": code if organizer is None else organizer}


def organizer(code: int) -> dict[str, int]:
    return {"organizer": code}


NOT_YOURS = {
    "outsider": 404,
    "scorer_elsewhere": 404,
    "captain_other_team": 404,
    "captain": 404,
}
SHEET = {"pk": "played"}
DEAL = {**deal_body(18, taken=20), "version": "version"}
T = {"slug": "slug"}

API = [
    Case("auth-token", "post", {}, everyone(400), body={"username": "x"}),
    # A link holder has no token to end: it is not signed in.
    Case(
        "auth-token",
        "delete",
        {},
        dict.fromkeys(SIGNED_IN, 204),
        refused=dict.fromkeys(LINKS, 401),
    ),
    Case("health", "get", {}, everyone()),
    Case("tournament-list", "get", {}, everyone()),
    # Creating tournaments is for the site's creators and administrators, no role.
    Case(
        "tournament-list",
        "post",
        {},
        dict.fromkeys(SITE, 201),
        body={"name": "New Cup", "slug": "new-cup"},
    ),
    # The site's people: its administrators only (docs/people.md).
    Case("site-invitation-list", "get", {}, {"site_admin": 200}),
    Case(
        "site-invitation-list",
        "post",
        {},
        {"site_admin": 201},
        body={"role": "creator"},
    ),
    Case(
        "site-invitation-detail",
        "delete",
        {"pk": "site_invitation"},
        {"site_admin": 204},
    ),
    Case("site-role-list", "get", {}, {"site_admin": 200}),
    # People, seasons and ratings: the site's, read by everyone; merges, splits and
    # seasons made by its administrators, a person hidden by an organizer of a
    # tournament they play in (docs/ratings.md).
    Case("person-list", "get", {}, everyone()),
    Case("person-detail", "get", {"pk": "person"}, everyone()),
    Case(
        "person-detail",
        "patch",
        {"pk": "person"},
        {"organizer": 200, "site_admin": 200},
        body={"hidden": True},
    ),
    Case(
        "person-merge",
        "post",
        {"pk": "person"},
        {"site_admin": 200},
        body={"other": "person_abroad"},
    ),
    # Its only seat: refused as input (a split leaves the person one).
    Case(
        "person-split",
        "post",
        {"pk": "person"},
        {"site_admin": 400},
        body={"players": ["person_seat"]},
    ),
    # Suggested matches: the site's administrators answer them (docs/ratings.md).
    Case("namesake-list", "get", {}, {"site_admin": 200}),
    Case("namesake-accept", "post", {"pk": "suggestion"}, {"site_admin": 200}),
    Case("namesake-dismiss", "post", {"pk": "suggestion"}, {"site_admin": 204}),
    Case("season-list", "get", {}, everyone()),
    Case(
        "season-list",
        "post",
        {},
        {"site_admin": 201},
        body={"name": "Next season", "tournaments": ["past"]},
    ),
    Case("season", "get", {"slug": "season"}, everyone()),
    Case(
        "season",
        "patch",
        {"slug": "season"},
        {"site_admin": 200},
        body={"points": {"1": 20, "2": 10}},
    ),
    Case("season-standings", "get", {"slug": "season"}, everyone()),
    Case("season-workbook", "get", {"slug": "season"}, everyone()),
    Case("rating-list", "get", {}, everyone()),
    Case("rating-list", "get", {}, everyone(), query="?season=season"),
    Case("site-role-detail", "delete", {"pk": "creator_id"}, {"site_admin": 204}),
    Case("tournament-detail", "get", T, everyone()),
    Case("tournament-detail", "patch", T, organizer(200), body={"venue": "Hall"}),
    Case("section-list", "get", T, everyone()),
    Case(
        "section-list", "post", T, organizer(201), body={"name": "W", "states": ["CA"]}
    ),
    Case("section-detail", "get", {**T, "pk": "spare"}, everyone()),
    Case(
        "section-detail",
        "patch",
        {**T, "pk": "spare"},
        organizer(200),
        body={"states": ["OK"]},
    ),
    Case("section-detail", "delete", {**T, "pk": "spare"}, organizer(204)),
    Case("team-list", "get", T, everyone()),
    Case(
        "team-list",
        "post",
        T,
        organizer(201),
        body={
            "name": "New",
            "captain": {"name": "J", "city": "Edison", "state": "NJ", "country": "USA"},
            "players": ["A", "B"],
        },
    ),
    Case("team-detail", "get", {**T, "pk": "team"}, everyone()),
    Case(
        "team-detail",
        "patch",
        {**T, "pk": "team"},
        organizer(200),
        body={"name": "Kings II"},
    ),
    Case("team-detail", "delete", {**T, "pk": "team"}, organizer(409)),
    Case("team-import", "post", T, organizer(400), body={}),
    Case("team-import-template", "get", T, everyone()),
    Case("member-list", "get", T, organizer(200)),
    Case(
        "member-list",
        "post",
        T,
        organizer(201),
        body={"username": "new-scorer", "password": "a-long-pass-56", "role": "scorer"},
    ),
    Case("member-detail", "delete", {**T, "pk": "member"}, organizer(204)),
    Case("match-list", "get", T, everyone()),
    Case(
        "match-list",
        "post",
        T,
        organizer(201),
        body={"team_a": "spare", "team_b": "spare", "round": 2, "table": 1},
    ),
    Case("draw", "get", T, everyone()),
    Case("draw", "post", T, organizer(409), body={"seed": 1}),
    Case("round-list", "get", T, everyone()),
    Case("round-release", "post", {**T, "number": "1"}, organizer(409)),
    Case("standings", "get", T, everyone()),
    Case("standings-lots", "post", T, organizer(409)),
    Case("statistics", "get", T, everyone()),
    Case("match-detail", "get", SHEET, everyone()),
    Case("match-detail", "delete", {"pk": "empty"}, organizer(204)),
    Case(
        "match-deals", "post", {"pk": "empty"}, staff(201), body={**DEAL, "version": 1}
    ),
    Case(
        "match-deal",
        "put",
        {"pk": "played", "number": "18"},
        {**staff(200), "table_link": 200},
        body=DEAL,
    ),
    Case(
        "match-deal",
        "delete",
        {"pk": "played", "number": "18"},
        {**staff(200), "table_link": 200},
        query="?version=version",
    ),
    Case(
        "match-penalties",
        "post",
        SHEET,
        {**staff(201), "table_link": 201},
        body={"deal": 3, "offender": "B", "kind": "kallakali", "version": "version"},
    ),
    Case(
        "match-penalty",
        "delete",
        {"pk": "played", "penalty": "penalty"},
        {**staff(200), "table_link": 200},
        query="?version=version",
    ),
    Case(
        "match-confirm",
        "post",
        SHEET,
        {"captain": 200, "organizer": 200, "team_link": 200},
        body={"version": "version"},
    ),
    Case("match-reopen", "post", SHEET, organizer(409), body={"reason": "typo"}),
    Case(
        "match-toss",
        "post",
        SHEET,
        {**staff(409), "table_link": 409},
        body={"winner": "A", "first_dealer": "B", "version": "version"},
    ),
    Case(
        "match-toss",
        "delete",
        SHEET,
        {**staff(409), "table_link": 409},
        query="?version=version",
    ),
    Case("match-history", "get", SHEET, everyone()),
    # One match's paper sheet is public, as its page is; a round's is for the desk.
    Case("match-sheet-xlsx", "get", SHEET, everyone()),
    Case("export", "get", T, staff()),
    Case("export-list", "get", T, staff()),
    Case("export-list", "post", T, staff(200)),
    # Someone else's build does not exist for you.
    Case("export-detail", "get", {"pk": "job"}, staff(), refused=NOT_YOURS),
    Case("export-file", "get", {"pk": "done"}, staff(), refused=NOT_YOURS),
    Case("round-sheets-xlsx", "get", T, staff(), query="?round=1"),
    Case("score-sheets-import", "post", T, organizer(400), body={}),
    Case("knockout", "post", T, organizer(400)),  # 4 teams cannot give 24 qualifiers
    # The tournament day (rules.md §9)
    Case(
        "team-check-in",
        "post",
        {**T, "pk": "aces"},
        {"captain": 200, "team_link": 200, **organizer(200)},
    ),
    Case(
        "team-check-in",
        "delete",
        {**T, "pk": "aces"},
        {"captain": 200, "team_link": 200, **organizer(200)},
    ),
    # Another team's check-in is not the Aces' link's to do.
    Case("team-check-in", "post", {**T, "pk": "team"}, organizer(200)),
    # Not drawn yet: an organizer is told so (409); everyone else may not.
    Case(
        "team-withdraw",
        "post",
        {**T, "pk": "team"},
        organizer(409),
        body={"from_round": 1, "reason": "left"},
    ),
    Case("team-substitutions", "get", {**T, "pk": "aces"}, everyone()),
    Case(
        "team-substitutions",
        "post",
        {**T, "pk": "aces"},
        organizer(409),
        body={"out": "x", "in": "y", "from_round": 1, "reason": "flight"},
    ),
    Case(
        "match-forfeit",
        "post",
        {"pk": "empty"},
        organizer(200),
        body={"absent": "A", "reason": "late", "version": "empty_version"},
    ),
    Case("match-disputes", "get", SHEET, everyone()),
    Case(
        "match-disputes",
        "post",
        SHEET,
        {"captain": 201, "team_link": 201, **staff(201)},
        body={"deal": 3, "text": "deal 3 was B's"},
    ),
    Case(
        "match-dispute-rule",
        "post",
        {"pk": "disputed", "dispute": "dispute_id"},
        organizer(200),
        body={"ruling": "the match stands"},
    ),
    Case("bracket", "get", T, everyone()),
    # Table and team links: the organizer's list and renewal.
    Case("link-list", "get", T, organizer(200)),
    Case("link-renew", "post", T, organizer(200), body={"table": 1}),
    # Table 1's link reaches the played sheet only: not table 2's.
    Case(
        "match-deals",
        "post",
        {"pk": "empty"},
        staff(201),
        body={**DEAL, "version": "empty_version"},
    ),
]

PAGES = [
    Case("tournament:home", "get", {}, everyone(), page=True),
    # The site's icon, for whoever asks (issue 52).
    Case("favicon", "get", {}, everyone(301), page=True),
    # People, ratings and seasons: the site's pages (docs/ratings.md).
    Case("scoring:people", "get", {}, everyone(), page=True),
    Case(
        "scoring:people",
        "post",
        {},
        {"site_admin": 302},
        page=True,
        body={"suggestion": "suggestion", "action": "dismiss"},
    ),
    # Counted for the ratings: a site administrator (or a trusted creator who
    # organizes it) says so, on the tournament's page (docs/ratings.md).
    Case(
        "tournament:rated",
        "post",
        T,
        {"site_admin": 302},
        page=True,
        body={"rated": "0"},
    ),
    Case("scoring:person", "get", {"pk": "person"}, everyone(), page=True),
    Case(
        "scoring:person",
        "post",
        {"pk": "person"},
        {"organizer": 302, "site_admin": 302},
        page=True,
        body={"action": "hide"},
    ),
    Case(
        "scoring:person",
        "post",
        {"pk": "person"},
        {"site_admin": 302},
        page=True,
        body={"action": "merge", "other": "person_abroad"},
    ),
    Case("brackets:ratings", "get", {}, everyone(), page=True),
    Case("brackets:seasons", "get", {}, everyone(), page=True),
    Case(
        "brackets:seasons",
        "post",
        {},
        {"site_admin": 302},
        page=True,
        body={"name": "Next season", "tournaments": "past"},
    ),
    Case("brackets:season", "get", {"slug": "season"}, everyone(), page=True),
    Case(
        "brackets:season",
        "post",
        {"slug": "season"},
        {"site_admin": 302},
        page=True,
        body={"name": "Season", "tournaments": "past", "points": "1: 20, 2: 10"},
    ),
    Case("tournament:detail", "get", T, everyone(), page=True),
    Case("tournament:teams", "get", T, everyone(), page=True),
    Case("tournament:registration", "get", T, organizer(200), page=True),
    # Creating a tournament is for the site's creators and administrators, no role.
    Case("tournament:create", "get", {}, dict.fromkeys(SITE, 200), page=True),
    # The site administration page, and a site invitation's link (its own permission).
    Case("tournament:site", "get", {}, {"site_admin": 200}, page=True),
    Case(
        "tournament:site",
        "post",
        {},
        {"site_admin": 302},
        page=True,
        body={"action": "invite", "invite-role": "creator", "invite-days": "7"},
    ),
    Case(
        "tournament:site",
        "post",
        {},
        {"site_admin": 302},
        page=True,
        body={"action": "withdraw", "row": "site_invitation"},
    ),
    Case(
        "tournament:site",
        "post",
        {},
        {"site_admin": 302},
        page=True,
        body={"action": "remove", "row": "creator_id"},
    ),
    Case(
        "tournament:site-invitation",
        "get",
        {"key": "site_invitation_key"},
        everyone(),
        page=True,
    ),
    Case(
        "tournament:site-invitation",
        "get",
        {"key": "not-a-key"},
        everyone(404),
        page=True,
    ),
    Case("tournament:settings", "get", T, organizer(200), page=True),
    Case(
        "tournament:settings",
        "post",
        T,
        organizer(302),
        page=True,
        body={
            "name": "Open",
            "ruleset": "international",
            "players_per_team": "3",
            "league_rounds": "2",
            "league_deals": "18",
            "qualifiers": "24",
            "substitutions_allowed": "1",
            "published": "on",
        },
    ),
    Case("tournament:people", "get", T, organizer(200), page=True),
    Case(
        "tournament:people",
        "post",
        T,
        organizer(302),
        page=True,
        body={"action": "invite", "invite-role": "scorer", "invite-days": "7"},
    ),
    # An invitation's link is its own permission: whoever holds it sees the offer.
    Case(
        "tournament:invitation", "get", {"key": "invitation_key"}, everyone(), page=True
    ),
    Case(
        "tournament:invitation", "get", {"key": "not-a-key"}, everyone(404), page=True
    ),
    # Django's own password views: the change is for the signed-in, the reset for all.
    Case("password_change", "get", {}, dict.fromkeys(SIGNED_IN, 200), page=True),
    Case(
        "set_language",
        "post",
        {},
        everyone(302),
        page=True,
        body={"language": "ml", "next": "/"},
    ),
    Case("password_change_done", "get", {}, dict.fromkeys(SIGNED_IN, 200), page=True),
    Case("password_reset", "get", {}, everyone(), page=True),
    Case("password_reset_done", "get", {}, everyone(), page=True),
    Case(
        "password_reset_confirm",
        "get",
        {"uidb64": "MQ", "token": "not-a-token"},
        everyone(),
        page=True,
    ),
    Case("password_reset_complete", "get", {}, everyone(), page=True),
    Case("scoring:matches", "get", T, everyone(), page=True),
    Case("scoring:draw", "get", T, organizer(200), page=True),
    Case("scoring:desk", "get", T, staff(), page=True),
    Case(
        "scoring:desk",
        "post",
        T,
        organizer(302),
        page=True,
        body={"action": "announce", "text": "Lunch at one"},
    ),
    Case("scoring:screen", "get", T, everyone(), page=True),
    Case("scoring:where", "get", T, everyone(), page=True, query="?q=Kin"),
    Case("scoring:standings", "get", T, everyone(), page=True),
    Case("scoring:team", "get", {**T, "pk": "aces"}, everyone(), page=True),
    Case("scoring:statistics", "get", T, everyone(), page=True),
    Case(
        "scoring:player",
        "get",
        {**T, "pk": "aces", "name": "aces_captain"},
        everyone(),
        page=True,
    ),
    Case("scoring:match", "get", SHEET, everyone(), page=True),
    Case("scoring:score", "get", SHEET, staff(), page=True),
    # Fragments that htmx fetches answer 403, not a login page, when signed out.
    Case(
        "scoring:score-preview",
        "get",
        SHEET,
        staff(),
        page=True,
        refused={"anonymous": 403},
    ),
    Case("scoring:excel", "get", T, staff(), page=True),
    Case(
        "scoring:export-job",
        "get",
        {**T, "pk": "job"},
        staff(),
        page=True,
        refused={"anonymous": 403},
    ),
    Case("scoring:export-download", "get", {**T, "pk": "done"}, staff(), page=True),
    Case("scoring:round-print", "get", T, staff(), page=True, query="?round=1"),
    Case("scoring:match-print", "get", SHEET, everyone(), page=True),
    Case("brackets:bracket", "get", T, everyone(), page=True),
    # Links: the organizer's tab and cards; a link's own pages, where the key in
    # the address is the permission, as an invitation's is.
    Case("scoring:links", "get", T, organizer(200), page=True),
    Case(
        "scoring:links", "post", T, organizer(302), page=True, body={"link": "table-1"}
    ),
    Case("scoring:link-cards", "get", T, organizer(200), page=True),
    Case("scoring:link", "get", {"key": "table_key"}, everyone(), page=True),
    Case("scoring:link", "get", {"key": "team_key"}, everyone(), page=True),
    Case("scoring:link", "get", {"key": "not-a-key"}, everyone(404), page=True),
    Case(
        "scoring:link",
        "post",
        {"key": "team_key"},
        everyone(302),
        page=True,
        body={"action": "check_in"},
    ),
    Case(
        "scoring:link-sheet",
        "get",
        {"key": "table_key", "pk": "played"},
        everyone(),
        page=True,
    ),
    Case(
        "scoring:link-sheet",
        "get",
        {"key": "table_key", "pk": "empty"},
        everyone(403),
        page=True,
    ),
    Case(
        "scoring:link-sheet",
        "post",
        {"key": "table_key", "pk": "played"},
        everyone(302),
        page=True,
        body={"action": "delete", "number": "18", "version": "version"},
    ),
    Case(
        "scoring:link-preview",
        "get",
        {"key": "table_key", "pk": "played"},
        everyone(),
        page=True,
    ),
    Case("scoring:link-qr", "get", {"key": "table_key"}, everyone(), page=True),
    Case("scoring:link-manifest", "get", {"key": "table_key"}, everyone(), page=True),
    Case("scoring:score-manifest", "get", SHEET, everyone(), page=True),
    Case("scoring:service-worker", "get", {}, everyone(), page=True),
    Case("tournament:backups", "get", T, organizer(200), page=True),
    Case("tournament:backups", "post", T, organizer(302), page=True),
    Case(
        "tournament:backup-download",
        "get",
        {**T, "pk": "backup"},
        organizer(200),
        page=True,
    ),
    Case(
        "tournament:backup-restore",
        "get",
        {**T, "pk": "backup"},
        organizer(200),
        page=True,
    ),
    # Without the typed confirmation nothing is restored: back to the form.
    Case(
        "tournament:backup-restore",
        "post",
        {**T, "pk": "backup"},
        organizer(302),
        page=True,
    ),
    # Importing is for the site's creators and administrators, no role.
    Case("tournament:import", "get", {}, dict.fromkeys(SITE, 200), page=True),
    # The tournament day on the pages: each form answers with a redirect to its page.
    Case(
        "tournament:registration",
        "post",
        T,
        organizer(302),
        page=True,
        body={"action": "check-in", "team": "aces", "arrived": "on"},
    ),
    Case(
        "scoring:match",
        "post",
        {"pk": "empty"},
        organizer(302),
        page=True,
        body={
            "action": "forfeit",
            "absent": "B",
            "reason": "late",
            "version": "empty_version",
        },
    ),
    Case(
        "scoring:match",
        "post",
        SHEET,
        {"captain": 302, **staff(302)},
        page=True,
        body={"action": "dispute", "text": "deal 3 was B's"},
    ),
    Case(
        "scoring:match",
        "post",
        {"pk": "disputed"},
        organizer(302),
        page=True,
        body={"action": "rule", "dispute": "dispute_id", "ruling": "stands"},
    ),
    Case(
        "scoring:team",
        "post",
        {**T, "pk": "aces"},
        organizer(302),
        page=True,
        body={
            "action": "substitute",
            "substitute-out": "x",
            "substitute-into": "y",
            "substitute-from_round": "1",
            "substitute-stage": "league",
            "substitute-reason": "z",
        },
    ),
]
CASES = API + PAGES


def _value(value, ids):
    if isinstance(value, str) and value in ids:
        return ids[value]
    if isinstance(value, dict):
        return {k: _value(v, ids) for k, v in value.items()}
    if isinstance(value, list):
        return [_value(v, ids) for v in value]
    return value


@functools.cache
def _project_routes() -> frozenset[str]:
    return frozenset(_routes(get_resolver().url_patterns))


def _full_name(case: Case) -> str:
    """The route's name with its namespace (the API's are per app)."""
    if case.page:
        return case.name
    found = [r for r in _project_routes() if r.endswith(f"-api:{case.name}")]
    assert len(found) == 1, (case.name, found)
    return found[0]


def _call(client: APIClient, case: Case, ids: dict):
    kwargs = {k: _value(v, ids) for k, v in case.kwargs.items()}
    path = reverse(_full_name(case), kwargs=kwargs)
    query = case.query.replace("=version", f"={ids['version']}")
    body = _value(case.body, ids)
    if case.name == "match-list" and body:
        body = {**body, "team_a": ids["team"], "team_b": ids["jacks"]}
    fmt = "multipart" if "import" in case.name or case.page else "json"
    if case.method == "get":
        return client.get(path + query)
    return getattr(client, case.method)(path + query, body, format=fmt)


def _case_id(case: Case) -> str:
    action = (case.body or {}).get("action", "") if case.page else ""
    return f"{case.method} {case.name}" + (f" {action}" if action else "")


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_every_role_is_allowed_or_refused(world, case):
    answers = {}
    before = _state()  # the same for every role: each call is rolled back
    for role in ROLES:
        client = APIClient()
        user = world["users"].get(role)
        if user is not None:
            client.force_login(user)
        if role in world["links"]:
            client.credentials(HTTP_AUTHORIZATION=f"Link {world['links'][role]}")
        with transaction.atomic():
            response = _call(client, case, world["ids"])
            refused = (
                response.status_code in (302, 401, 403, 404) and role not in case.ok
            )
            if refused:
                assert _state() == before, f"{role}'s refused call changed rows"
            transaction.set_rollback(True)
        answers[role] = response.status_code
        if response.status_code == 302 and role not in case.ok:
            assert "/accounts/login/" in response["Location"]
    wanted = {role: case.expected(role) for role in ROLES}
    assert answers == wanted, {
        r: (answers[r], wanted[r]) for r in ROLES if answers[r] != wanted[r]
    }


def _routes(patterns, prefix="") -> set[str]:
    names = set()
    for p in patterns:
        if isinstance(p, URLResolver):
            space = f"{p.namespace}:" if p.namespace else ""
            names |= _routes(p.url_patterns, prefix + space)
        elif isinstance(p, URLPattern) and p.name:
            names.add(prefix + p.name)
    return names


def test_the_table_names_every_route():
    routes = {
        r
        for r in _project_routes()
        if not r.startswith("admin:") and r not in ("login", "logout")
    }
    routes -= {"api-schema", "api-docs"}  # the schema and its docs: public, no data
    named = {_full_name(c) for c in CASES}
    assert routes == named


# Unpublished: nothing leaks to those without a role in it
# ----------------------------------------------------------------------------------


HIDDEN = ["anonymous", "outsider", "scorer_elsewhere"]
# A link's own pages: the key in the address is the permission, published or not.
KEYED = {
    "scoring:link",
    "scoring:link-sheet",
    "scoring:link-preview",
    "scoring:link-qr",
    "scoring:link-manifest",
}


# The site's, not a tournament's: lists across tournaments, and merges and splits.
SITE_WIDE = {
    "scoring:people",
    "brackets:ratings",
    "brackets:seasons",
    "brackets:season",
    "person-list",
    "person-merge",
    "person-split",
    "namesake-list",
    "namesake-accept",
    "namesake-dismiss",
    "season-list",
    "season",
    "season-standings",
    "season-workbook",
    "rating-list",
}


@pytest.mark.parametrize("role", HIDDEN)
def test_an_unpublished_tournament_does_not_exist_for_outsiders(world, role):
    from tournament.models import Tournament

    Tournament.objects.filter(slug="open").update(published=False)
    client = APIClient()
    if world["users"][role] is not None:
        client.force_login(world["users"][role])
    for case in CASES:
        if (
            case.name
            in (
                "health",
                "tournament-list",
                "auth-token",
                "tournament:home",
                "tournament:import",  # of no tournament: refused for its own reason
                "tournament:create",
                "tournament:invitation",  # the link is the permission: it names its own
                "tournament:site",  # the site's, of no tournament
                "tournament:site-invitation",
                "scoring:service-worker",  # of no tournament
                "favicon",  # the site's icon
            )
            or case.name.startswith(("password_", "site-"))
            or case.name in KEYED
        ):
            continue
        if case.name in SITE_WIDE:
            # The site's lists answer, without the unpublished tournament's rows.
            with transaction.atomic():
                response = _call(client, case, world["ids"])
                transaction.set_rollback(True)
            assert response.status_code in (200, 302, 401, 403), case.name
            assert b"Aces" not in response.content, case.name
            assert b"open" not in response.content or case.name != "season-list"
            continue
        with transaction.atomic():
            response = _call(client, case, world["ids"])
            transaction.set_rollback(True)
        assert response.status_code in (302, 401, 404), (case.method, case.name)
        if response.status_code != 302:  # a redirect to log in says nothing
            assert b"Aces" not in response.content
    listed = client.get("/api/v1/tournaments/").json()["results"]
    assert "open" not in {t["slug"] for t in listed}
    assert b"open" not in client.get("/").content.split(b"<main>")[1]
    schema = client.get("/api/v1/schema/").content
    assert b"Aces" not in schema and b"/open/" not in schema


def test_its_people_still_see_it(world):
    from tournament.models import Tournament

    Tournament.objects.filter(slug="open").update(published=False)
    for role in ("captain_other_team", "captain", "scorer", "organizer"):
        client = APIClient()
        client.force_login(world["users"][role])
        assert client.get("/api/v1/tournaments/open/").status_code == 200
        teams = client.get("/api/v1/tournaments/open/teams/?search=Ace").json()
        assert [t["name"] for t in teams["results"]] == ["Aces"]
