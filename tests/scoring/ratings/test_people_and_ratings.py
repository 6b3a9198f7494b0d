"""People across tournaments and their stored ratings (RULES.md §10, docs/ratings.md),
through the services and the API as organizers, scorers and administrators use them."""

from __future__ import annotations

import random
import time
from io import StringIO
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext

from scoring.domain import ratings as rating
from scoring.models import Match, PersonRating, RatedGame, RatingStep, RebuildWanted
from scoring.ratings import receivers as ratings_receivers
from scoring.ratings import tasks as ratings_tasks
from scoring.ratings.services import (
    START,
    ratings_behind,
    ratings_catch_up,
    ratings_rebuild,
    ratings_refresh,
    sheet_position,
)
from scoring.ratings.tasks import (
    ratings_catch_up_check,
    ratings_catch_up_task,
    ratings_refresh_task,
)
from scoring.sheets import services as sheets_services
from tests.conftest import as_user
from tests.factories import (
    SectionFactory,
    TeamFactory,
    TournamentFactory,
    UserFactory,
    member,
)
from tests.scoring.league import drawn_league, play_quickly
from tournament.accounts.services import site_role_grant
from tournament.domain.types import Role
from tournament.models import Person, PersonChange, Player, Seat
from tournament.persons.services import person_merge, person_split
from tournament.services import tournament_update

pytestmark = pytest.mark.django_db


def _person(team, name) -> Person:
    return Seat.objects.get(team=team, name=name).person


def test_one_name_and_city_is_one_person_across_tournaments():
    spring = SectionFactory(tournament=TournamentFactory(slug="spring"))
    autumn = SectionFactory(tournament=TournamentFactory(slug="autumn"))
    a = TeamFactory(section=spring, captain_name="Anil Varghese")
    b = TeamFactory(section=autumn, captain_name="  anil   VARGHESE ")
    elsewhere = TeamFactory(
        section=autumn, captain_name="Anil Varghese", captain_city="Kochi"
    )
    assert _person(a, "Anil Varghese") == _person(b, "  anil   VARGHESE ")
    assert _person(elsewhere, "Anil Varghese") != _person(a, "Anil Varghese")
    # Namesakes of one city on two teams of one tournament are two people.
    twin = TeamFactory(section=autumn, captain_name="Anil Varghese")
    assert _person(twin, "Anil Varghese") != _person(b, "  anil   VARGHESE ")


def test_registering_through_the_api_and_a_substitute_find_their_people(api):
    old = TeamFactory(
        section=SectionFactory(tournament=TournamentFactory(slug="old")),
        captain_name="Biju George",
    )
    tournament = TournamentFactory(slug="new-cup")
    SectionFactory(tournament=tournament, name="NJ", states=["NJ"])
    organizer = member(tournament, Role.ORGANIZER)
    answer = as_user(api, organizer).post(
        "/api/v1/tournaments/new-cup/teams/",
        {
            "name": "Edison Aces",
            "captain": {
                "name": "BIJU GEORGE",
                "city": "edison",
                "state": "NJ",
                "country": "USA",
            },
            "players": ["Saji Cherian", "Sunil Kunnel"],
        },
        "json",
    )
    assert answer.status_code == 201, answer.json()
    team = answer.json()["id"]
    assert _person(team, "BIJU GEORGE") == _person(old, "Biju George")
    assert Seat.objects.filter(team=team).count() == 3


def _league(teams: int = 8, published: bool = True, rated: bool = True):
    tournament = TournamentFactory(
        slug="rated-cup", league_rounds=3, published=published, rated=rated
    )
    organizer = member(tournament, Role.ORGANIZER)
    matches = drawn_league(tournament, organizer, sections=2, per_section=teams // 2)
    return tournament, organizer, matches


def _confirm(match: Match, user, total_a: int, total_b: int) -> None:
    play_quickly(match.pk, user, total_a, total_b, deals=match.deals_scheduled)
    version = Match.objects.get(pk=match.pk).version
    sheets_services.score_sheet_confirm(
        match_id=match.pk,
        user=user,
        version=version,
        roles=frozenset({Role.ORGANIZER}),
        sides=frozenset(),
    )


def _stored() -> tuple[list, list]:
    return (
        sorted(PersonRating.objects.values_list("person", "mu", "sigma", "matches")),
        sorted(RatingStep.objects.values_list("person", "position", "mu", "sigma")),
    )


def test_ratings_kept_as_sheets_come_in_any_order_equal_a_rebuild_exactly():
    _, organizer, matches = _league()
    order = list(matches)
    random.Random(56).shuffle(order)  # sheets confirmed out of the ratings' order
    for n, match in enumerate(order):
        _confirm(match, organizer, 20 + n % 5, 15 + n % 7)
        ratings_refresh(since=sheet_position(match_id=match.pk))
    kept = _stored()
    assert RatedGame.objects.count() == len(matches)
    assert len(kept[0]) == 8 * 3  # every player of every team
    assert all(m == 3 for *_, m in kept[0])  # three rounds each
    ratings_rebuild()
    assert _stored() == kept  # to the last bit
    # And the bits are the pure module's: nothing lost on the way into the table (a
    # bulk COPY on PostgreSQL).
    games = RatedGame.objects.order_by("position")
    pure = rating.rate(
        rating.RatedMatch(g.match, g.side_a, g.side_b, rating.Outcome(g.outcome))
        for g in games
    )
    assert kept[0] == sorted(
        (person, r.mu, r.sigma, r.matches) for person, r in pure.people.items()
    )
    assert len(kept[1]) == len(pure.steps) == len(matches) * 6
    out = StringIO()
    call_command("ratings_rebuild", stdout=out)
    assert f"Rated {len(matches)} matches" in out.getvalue()
    assert "0 of whose stored ratings were different" in out.getvalue()


def test_a_win_raises_the_winners_and_a_reopened_sheet_is_taken_back():
    _, organizer, matches = _league()
    first = matches[0]
    _confirm(first, organizer, 30, 10)
    ratings_refresh_task.apply(args=[first.pk])
    game = RatedGame.objects.get(match=first.pk)
    assert game.outcome == "A"
    winners = PersonRating.objects.filter(person__in=game.side_a)
    losers = PersonRating.objects.filter(person__in=game.side_b)
    assert min(r.display for r in winners) > max(r.display for r in losers)
    assert all(r.matches == 1 for r in [*winners, *losers])
    sheets_services.score_sheet_reopen(
        match_id=first.pk, user=organizer, reason="a deal was entered twice"
    )
    ratings_refresh_task.apply(args=[first.pk])
    assert not RatedGame.objects.exists()
    assert not PersonRating.objects.exists()


def test_confirming_a_sheet_sends_the_refresh_after_the_commit(
    django_capture_on_commit_callbacks, settings
):
    settings.RATINGS_AUTOMATIC = True
    _, organizer, matches = _league()
    with django_capture_on_commit_callbacks() as callbacks:
        _confirm(matches[0], organizer, 25, 20)
    sent = [c for c in callbacks if ratings_refresh_task in getattr(c, "args", ())]
    assert [c.args[1] for c in sent] == [matches[0].pk]


def _admin():
    user = UserFactory(username="site-admin")
    site_role_grant(user=user, role="administrator")
    return user


def test_an_administrator_merges_and_splits_people_with_the_history_kept(api):
    one = TeamFactory(
        section=SectionFactory(tournament=TournamentFactory(slug="t1", published=True)),
        captain_name="K. Joseph",
    )
    two = TeamFactory(
        section=SectionFactory(tournament=TournamentFactory(slug="t2", published=True)),
        captain_name="Kurian Joseph",
    )
    keep, other = _person(one, "K. Joseph"), _person(two, "Kurian Joseph")
    client = as_user(api, _admin())
    merged = client.post(
        f"/api/v1/people/{keep.pk}/merge/", {"other": other.pk}, "json"
    )
    assert merged.status_code == 200, merged.json()
    body = merged.json()
    assert body["tournaments"] == 2
    assert {t["tournament"] for t in body["teams"]} == {"t1", "t2"}
    assert body["changes"][0]["kind"] == "merge"
    assert not Person.objects.filter(pk=other.pk).exists()
    assert client.get(f"/api/v1/people/{other.pk}/").status_code == 404
    # The split undoes it: the seat of t2 is a person of its own again.
    seat = next(t["player"] for t in body["teams"] if t["tournament"] == "t2")
    split = client.post(f"/api/v1/people/{keep.pk}/split/", {"players": [seat]}, "json")
    assert split.status_code == 201, split.json()
    assert split.json()["teams"][0]["tournament"] == "t2"
    assert _person(two, "Kurian Joseph").pk == split.json()["id"] != keep.pk
    kinds = list(
        PersonChange.objects.filter(person=keep).values_list("kind", flat=True)
    )
    assert kinds == ["split", "merge"]


def test_a_merge_of_two_teams_players_of_one_tournament_is_refused(api):
    section = SectionFactory(tournament=TournamentFactory(slug="one", published=True))
    a = TeamFactory(section=section, captain_name="Jose")
    b = TeamFactory(section=section, captain_name="Joseph")
    first, second = _person(a, "Jose"), _person(b, "Joseph")
    answer = as_user(api, _admin()).post(
        f"/api/v1/people/{first.pk}/merge/", {"other": second.pk}, "json"
    )
    assert answer.status_code == 409
    assert answer.json()["code"] == "two_teams"
    assert _person(b, "Joseph").pk == second.pk  # nothing changed
    for body, field in (({"other": first.pk}, "other"), ({"other": 10**9}, "other")):
        refused = as_user(api, _admin()).post(
            f"/api/v1/people/{first.pk}/merge/", body, "json"
        )
        assert refused.status_code == 400 and field in refused.json()


def test_a_hidden_person_is_left_out_for_the_public_but_counts(api):
    tournament = TournamentFactory(slug="open", published=True)
    team = TeamFactory(
        section=SectionFactory(tournament=tournament), captain_name="Quiet One"
    )
    person = _person(team, "Quiet One")
    organizer = member(tournament, Role.ORGANIZER)
    hidden = as_user(api, organizer).patch(
        f"/api/v1/people/{person.pk}/", {"hidden": True}, "json"
    )
    assert hidden.status_code == 200 and hidden.json()["hidden"] is True
    public = api.__class__()
    names = [p["name"] for p in public.get("/api/v1/people/").json()["results"]]
    assert "Quiet One" not in names and len(names) == 2
    assert public.get(f"/api/v1/people/{person.pk}/").status_code == 404
    # The organizer who hid them still finds them, to show them again.
    again = as_user(api, organizer).patch(
        f"/api/v1/people/{person.pk}/", {"hidden": False}, "json"
    )
    assert again.status_code == 200 and again.json()["hidden"] is False


def rated_league():
    """A published league of 8 teams, its 3 rounds confirmed and rated."""
    tournament, organizer, matches = _league()
    tournament.published = True
    tournament.save(update_fields=["published"])
    for n, match in enumerate(matches):
        _confirm(match, organizer, 30 - n % 9, 12 + n % 4)
    ratings_rebuild()
    return tournament, organizer, matches


def test_a_season_scores_league_places_for_teams_and_their_players(api):
    rated_league()
    client = as_user(api, _admin())
    made = client.post(
        "/api/v1/seasons/",
        {
            "name": "Season 2026",
            "tournaments": ["rated-cup"],
            "points": {"1": 10, "2": 7, "3": 5},
        },
        "json",
    )
    assert made.status_code == 201, made.json()
    assert made.json()["slug"] == "season-2026"
    found = api.__class__().get("/api/v1/seasons/season-2026/standings/").json()
    standings = api.get("/api/v1/tournaments/rated-cup/standings/").json()["rows"]
    rank = {row["team_name"]: row["rank"] for row in standings}
    table = {1: 10, 2: 7}
    for row in found["teams"]:
        assert row["total"] == table.get(rank[row["name"]], 5)
        assert row["points"] == {"rated-cup": row["total"]}
    assert [r["total"] for r in found["teams"]] == sorted(
        (r["total"] for r in found["teams"]), reverse=True
    )
    assert len(found["players"]) == 8 * 3  # everyone played a rated match
    best = found["teams"][0]
    assert sum(p["total"] == best["total"] for p in found["players"]) >= 3
    ratings = api.get("/api/v1/ratings/?season=season-2026").json()["rows"]
    assert len(ratings) == 24 and ratings[0]["rank"] == 1
    assert ratings[0]["display"] >= ratings[-1]["display"]
    refused = client.post(
        "/api/v1/seasons/",
        {"name": "Later", "tournaments": ["nowhere"], "points": {"2": 5}},
        "json",
    )
    assert refused.status_code == 400
    assert refused.json().keys() == {"tournaments", "points"}


def test_a_persons_kallakali_counts_the_matches_he_played(api):
    tournament, organizer, matches = _league()
    tournament.published = True
    tournament.save(update_fields=["published"])
    match = matches[0]
    play_quickly(match.pk, organizer, 25, 20, deals=match.deals_scheduled)
    sheets_services.score_sheet_penalty_record(
        match_id=match.pk,
        user=organizer,
        version=None,
        deal=2,
        offender="B",
        kind="kallakali",
        by_organizer=True,
    )
    sheets_services.score_sheet_confirm(
        match_id=match.pk,
        user=organizer,
        version=Match.objects.get(pk=match.pk).version,
        roles=frozenset({Role.ORGANIZER}),
        sides=frozenset(),
    )
    ratings_rebuild()
    game = RatedGame.objects.get(match=match.pk)
    a = api.get(f"/api/v1/people/{game.side_a[0]}/").json()["statistics"]
    b = api.get(f"/api/v1/people/{game.side_b[0]}/").json()["statistics"]
    assert (a["kallakali_caught"], a["kallakali_suffered"]) == (1, 0)
    assert (b["kallakali_caught"], b["kallakali_suffered"]) == (0, 1)


def test_a_rounds_refreshes_queued_behind_the_first_one_find_nothing_to_do():
    _, organizer, matches = _league()
    first_round = sorted((m for m in matches if m.round == 1), key=lambda m: m.table)
    for match in first_round:  # confirmed faster than the worker rates them
        _confirm(match, organizer, 24, 22)
    rated = [ratings_refresh_task.apply(args=[m.pk]).get() for m in first_round]
    assert rated == [len(first_round), 0, 0, 0]  # the first reached every one
    kept = _stored()
    ratings_rebuild()
    assert _stored() == kept


def test_a_lost_refresh_is_reached_back_to_by_the_next_sheets():
    """Redis down when a sheet was confirmed, or a worker killed holding its refresh:
    the next sheet's refresh, from a later place, rates it too."""
    _, organizer, matches = _league()
    early = min(matches, key=lambda m: (m.round, m.table))
    late = max(matches, key=lambda m: (m.round, m.table))
    _confirm(early, organizer, 30, 10)  # its refresh lost: none runs
    assert ratings_behind() == sheet_position(match_id=early.pk)
    _confirm(late, organizer, 12, 30)
    assert ratings_refresh_task.apply(args=[late.pk]).get() == 2
    assert ratings_behind() is None
    kept = _stored()
    assert RatedGame.objects.count() == 2
    # Six players in each (a team may play both).
    assert sum(m for *_, m in kept[0]) == 12
    ratings_rebuild()
    assert _stored() == kept


def test_a_lost_reopening_is_found_and_a_catch_up_takes_the_sheet_back():
    _, organizer, matches = _league()
    first = matches[0]
    _confirm(first, organizer, 30, 10)
    ratings_refresh_task.apply(args=[first.pk])
    sheets_services.score_sheet_reopen(
        match_id=first.pk, user=organizer, reason="a deal was entered twice"
    )  # its refresh lost
    assert ratings_behind() == RatedGame.objects.get(match=first.pk).position
    assert ratings_catch_up() == 0  # nothing left to rate
    assert ratings_behind() is None
    assert not RatedGame.objects.exists() and not PersonRating.objects.exists()
    assert ratings_catch_up() == 0


def test_a_match_with_nobody_to_rate_is_taken_and_the_ratings_are_not_behind():
    _, organizer, matches = _league()
    match, other = sorted(matches, key=lambda m: (m.round, m.table))[:2]
    Player.objects.filter(team=match.team_a_id).delete()  # registered without players
    _confirm(match, organizer, 30, 10)
    _confirm(other, organizer, 30, 10)
    assert ratings_refresh_task.apply(args=[other.pk]).get() == 1
    game = RatedGame.objects.get(match=match.pk)
    assert (game.side_a, game.side_b) == ([], [])  # taken, not rated
    assert ratings_behind() is None
    assert RatingStep.objects.filter(game=game).count() == 0
    assert PersonRating.objects.count() == 6  # the other match's players only
    assert ratings_refresh_task.apply(args=[match.pk]).get() == 0  # settled


def test_the_periodic_look_sends_a_catch_up_when_a_refresh_stays_lost(
    settings, monkeypatch, caplog
):
    cache.clear()
    _, organizer, matches = _league()
    _confirm(matches[0], organizer, 30, 10)  # RATINGS_AUTOMATIC off: none sent
    assert ratings_catch_up_check() is False  # off: the beat does not look
    settings.RATINGS_AUTOMATIC = True
    sent = []
    recorded = SimpleNamespace(delay=lambda: sent.append(1))  # sent, not run
    monkeypatch.setattr(ratings_tasks, "ratings_catch_up_task", recorded)
    # The first look finds it behind (its refresh may only be queued); the next,
    # still behind from the same place, sends the catch-up, and the looks after it
    # leave it to run (a refresh that runs long, queued behind workbooks).
    assert ratings_catch_up_check() is False and not sent
    assert ratings_catch_up_check() is True and len(sent) == 1
    assert ratings_catch_up_check() is False and len(sent) == 1
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    # Still behind once the hold is over: the catch-up failed; said, and sent again.
    cache.delete(f"ratings:catch-up:{ratings_behind()}")
    assert ratings_catch_up_check() is True and len(sent) == 2
    assert "still behind the sheets" in caplog.text
    assert ratings_catch_up_task.apply().get() == 1  # as a worker runs it
    assert RatedGame.objects.filter(match=matches[0].pk).exists()
    assert ratings_catch_up_check() is False and len(sent) == 2


def test_a_rebuild_whose_task_was_lost_is_found_and_done_by_the_beat(
    settings, monkeypatch
):
    """Redis down when a tournament was unpublished: the rebuild it asked for is never
    sent. The wish is kept in the unpublishing's transaction, so the ratings are
    behind from the start, over its tournament as over the site: the beat's second
    look sends a catch-up, which rebuilds and clears the wish; the next sheet's
    refresh would have done it too."""
    cache.clear()
    tournament, organizer, matches = _league()
    _confirm(matches[0], organizer, 30, 10)
    ratings_rebuild()
    assert ratings_behind() is None and RatedGame.objects.exists()
    settings.RATINGS_AUTOMATIC = True
    lost = []
    monkeypatch.setattr(
        ratings_receivers, "task_send_on_commit", lambda *a, **k: lost.append(a)
    )
    tournament_update(tournament=tournament, published=False)
    assert len(lost) == 1  # the rebuild's task, never sent
    assert RebuildWanted.objects.count() == 1
    assert ratings_behind() == START
    assert ratings_behind(tournament=tournament.pk) == START
    sent = []
    monkeypatch.setattr(
        ratings_tasks,
        "ratings_catch_up_task",
        SimpleNamespace(delay=lambda: sent.append(ratings_catch_up_task.apply())),
    )
    assert ratings_catch_up_check() is False  # the first look: maybe only queued
    assert ratings_catch_up_check() is True and len(sent) == 1
    # The unpublished tournament's match no longer rates; nothing is behind.
    assert not RatedGame.objects.exists() and not PersonRating.objects.exists()
    assert not RebuildWanted.objects.exists()
    assert ratings_behind() is None
    assert ratings_catch_up_check() is False and len(sent) == 1


def test_the_next_sheets_refresh_does_a_rebuild_still_wanted():
    _, organizer, matches = _league()
    first, second = sorted(matches, key=lambda m: (m.round, m.table))[:2]
    _confirm(first, organizer, 30, 10)
    RebuildWanted.objects.create()
    assert ratings_refresh(since="~") == 0  # from after every match: no rebuild
    assert RebuildWanted.objects.exists()
    _confirm(second, organizer, 30, 10)
    # From the start, not from its own place: both matches.
    assert ratings_refresh_task.apply(args=[second.pk]).get() == 2
    assert not RebuildWanted.objects.exists()
    assert ratings_behind() is None


def test_a_settled_sheets_refresh_takes_only_what_is_behind():
    """A sheet already rated asks for a refresh again (queued twice) while another,
    later one's refresh was lost: only the later place is rated again, not the first
    sheet's round."""
    _, organizer, matches = _league()
    first = min(matches, key=lambda m: (m.round, m.table))
    later = max(matches, key=lambda m: (m.round, m.table))
    _confirm(first, organizer, 30, 10)
    ratings_refresh_task.apply(args=[first.pk])
    before = RatedGame.objects.get(match=first.pk).pk
    _confirm(later, organizer, 12, 30)  # its refresh lost
    assert ratings_refresh_task.apply(args=[first.pk]).get() == 1  # the later one
    assert RatedGame.objects.get(match=first.pk).pk == before  # not taken back
    assert ratings_behind() is None
    kept = _stored()
    ratings_rebuild()
    assert _stored() == kept


@pytest.mark.django_db(transaction=True)
def test_the_worker_rates_a_sheet_confirmed_through_the_api(
    api, settings, celery_worker_running
):
    """The whole path: a captain's confirmation through the API, the task sent after
    the commit, the worker's refresh (eager in the embedded default, a real worker
    on Redis in the PostgreSQL pass), exactly what a rebuild stores."""
    settings.RATINGS_AUTOMATIC = True
    _, organizer, matches = _league()
    match = matches[0]
    play_quickly(match.pk, organizer, 26, 19, deals=match.deals_scheduled)
    version = Match.objects.get(pk=match.pk).version
    answer = as_user(api, organizer).post(
        f"/api/v1/matches/{match.pk}/confirm/", {"version": version}, "json"
    )
    assert answer.status_code == 200, answer.json()
    deadline = time.monotonic() + 30
    while not RatedGame.objects.filter(match=match.pk).exists():
        assert time.monotonic() < deadline, "the worker never rated the sheet"
        time.sleep(0.2)
    kept = _stored()
    assert len(kept[0]) == 6  # both teams' three players
    ratings_rebuild()
    assert _stored() == kept


def test_a_drafts_sheets_rate_nobody_until_it_is_published(api):
    _, organizer, matches = _league(published=False)
    _confirm(matches[0], organizer, 30, 10)
    assert ratings_rebuild() == 0 and not PersonRating.objects.exists()
    answer = as_user(api, organizer).patch(
        "/api/v1/tournaments/rated-cup/", {"published": True}, "json"
    )
    assert answer.status_code == 200
    assert ratings_rebuild() == 1 and PersonRating.objects.count() == 6


def test_an_organizer_of_one_of_his_tournaments_does_not_hide_a_player(api):
    theirs = TeamFactory(
        section=SectionFactory(
            tournament=TournamentFactory(slug="big", published=True)
        ),
        captain_name="Anil Varghese",
    )
    mine = TournamentFactory(slug="mine", published=True)
    TeamFactory(section=SectionFactory(tournament=mine), captain_name="Anil Varghese")
    person = _person(theirs, "Anil Varghese")
    assert Seat.objects.filter(person=person).count() == 2  # the namesake is him
    answer = as_user(api, member(mine, Role.ORGANIZER)).patch(
        f"/api/v1/people/{person.pk}/", {"hidden": True}, "json"
    )
    assert answer.status_code == 403
    assert not Person.objects.get(pk=person.pk).hidden


def test_a_restore_keeps_the_people_a_site_administrator_made():
    from tournament.backups.services import backup_content, backup_restore, backup_take

    tournament = TournamentFactory(slug="kept", published=True)
    section = SectionFactory(tournament=tournament)
    one = TeamFactory(section=section, captain_name="K. Joseph")
    two = TeamFactory(section=section, captain_name="Biju George")
    earlier = TournamentFactory(slug="before")
    TeamFactory(
        section=SectionFactory(tournament=earlier), captain_name="Kurian Joseph"
    )
    TeamFactory(section=SectionFactory(tournament=earlier), captain_name="Biju George")
    admin = _admin()
    # Two spellings merged into one person ...
    merged = person_merge(
        person=Seat.objects.get(team__tournament=earlier, name="Kurian Joseph").person,
        other=_person(one, "K. Joseph").pk,
        user=admin,
    )
    # ... and two namesakes told apart: this Biju George is not the earlier one.
    biju = _person(two, "Biju George")
    assert Seat.objects.filter(person=biju).count() == 2
    namesake = person_split(
        person=biju,
        players=[Seat.objects.get(team=two, name="Biju George").pk],
        user=admin,
    )
    content = backup_content(backup_take(tournament=tournament, reason="test"))
    backup_restore(tournament=tournament, content=content, trusted=True)
    # Found by name and city, they would be the other spelling's new person and the
    # older Biju George: the restore keeps what the administrator decided.
    assert _person(one, "K. Joseph").pk == merged.pk
    assert _person(two, "Biju George").pk == namesake.pk != biju.pk


def test_a_persons_figures_as_bidder_add_up_his_tournaments_in_one_query(api):
    """Team names repeat in the two leagues, and with them the second player of each
    team: one person across both tournaments. His figures are every contract he won
    the auction of there (not his captain's), read in one query however many
    tournaments he played."""
    first, organizer, _ = _league()
    second = TournamentFactory(slug="rated-cup-2", league_rounds=3, published=True)
    other = member(second, Role.ORGANIZER)
    drawn_league(second, other, sections=2, per_section=4)
    team, bidder = "Region 1 team 1", "Region 1 team 1 two"
    (person,) = {
        Seat.objects.get(team__tournament=t, name=bidder).person_id
        for t in (first, second)
    }
    played = [  # (tournament, its organizer, the captain bid?, taken): made from 30
        (first, organizer, False, 34),
        (first, organizer, False, 20),
        (second, other, False, 40),
        (second, other, True, 40),
    ]
    for number, (tournament, user, captain, taken) in enumerate(played, start=1):
        match = (
            Match.objects.filter(tournament=tournament)
            .filter(Q(team_a__name=team) | Q(team_b__name=team))
            .order_by("round", "table")
            .first()
        )
        side = "A" if match.team_a.name == team else "B"
        sheets_services.score_sheet_deal_record(
            match_id=match.pk,
            user=user,
            version=None,
            number=number if tournament == first else number - 2,
            declarer=side,
            value=30,
            trump="spades",
            level="none",
            taken=taken,
            bidder=match.team(side).captain_name if captain else bidder,
        )
    with CaptureQueriesContext(connection) as two:
        figures = api.get(f"/api/v1/people/{person}/").json()["statistics"]
    assert (figures["declared"], figures["made"], figures["defeated"]) == (3, 2, 1)
    captain = Seat.objects.get(
        team__tournament=second,
        team__name=team,
        name=Match.objects.filter(tournament=second, team_a__name=team)
        .first()
        .team_a.captain_name,
    ).person_id
    with CaptureQueriesContext(connection) as one:
        mine = api.get(f"/api/v1/people/{captain}/").json()["statistics"]
    assert (mine["declared"], mine["made"]) == (1, 1)
    assert len(two) == len(one)  # two tournaments cost what one does
