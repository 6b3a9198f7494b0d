"""What the ratings trust (issue 51; docs/ratings.md, "What the site trusts"): a
creator's tournament moves nobody's rating or history until a site administrator or
a trusted creator marks it rated; a namesake there waits as a suggested match; the
rebuilds that edits ask for are coalesced; merges refuse teammates and a person merged
away meanwhile. Through the API and the pages, as the attacker and the site's people
would use them."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.league import services as league_services
from scoring.models import Match, PersonRating, RatedGame, RebuildQueue, RebuildWanted
from scoring.ratings import receivers as ratings_receivers
from scoring.ratings.services import ratings_rebuild
from scoring.ratings.tasks import ratings_refresh_task
from tests.conftest import as_user
from tests.factories import (
    SectionFactory,
    TeamFactory,
    TournamentFactory,
    UserFactory,
    member,
)
from tournament.accounts.services import site_role_grant
from tournament.domain.errors import ConflictError
from tournament.domain.types import Role
from tournament.models import (
    Membership,
    NamesakeSuggestion,
    Person,
    PersonChange,
    Seat,
    Tournament,
)
from tournament.persons.services import person_merge, person_split

from .test_people_and_ratings import _admin, _confirm, _league, _person

pytestmark = pytest.mark.django_db


def _drawn_with(tournament, organizer, name: str, city: str) -> list[Match]:
    """A league of 4 teams over 2 sections, drawn and released; the first team's
    captain is `name` of `city`."""
    for s in range(2):
        section = SectionFactory(tournament=tournament, name=f"Area {s + 1}")
        for t in range(2):
            first = (s, t) == (0, 0)
            TeamFactory(
                section=section,
                name=f"Area {s + 1} team {t + 1}",
                **({"captain_name": name, "captain_city": city} if first else {}),
            )
    league_services.league_draw_generate(tournament=tournament, user=organizer, seed=1)
    league_services.league_rounds_release_all(tournament=tournament, user=organizer)
    return list(Match.objects.filter(tournament=tournament).order_by("round", "table"))


def _organize(tournament, user):
    Membership.objects.create(tournament=tournament, user=user, role=Role.ORGANIZER)


def _creator(username="creator"):
    user = UserFactory(username=username)
    site_role_grant(user=user, role="creator")
    return user


def _trusted(username="trusted"):
    from django.contrib.auth.models import Permission

    user = _creator(username)
    user.user_permissions.add(Permission.objects.get(codename="rate_tournament"))
    return type(user).objects.get(pk=user.pk)  # its permissions read afresh


def _star():
    """The top player of a rated league: its first sheet confirmed and rated."""
    _, organizer, matches = _league()
    _confirm(matches[0], organizer, 40, 0)
    ratings_rebuild()
    team = matches[0].team_a
    name = team.captain_name
    return _person(team, name), name, team.captain_city


def test_a_creators_fake_tournament_moves_no_rating_and_no_history(api):
    """The attack of issue 51: a new published tournament with a team under the top
    player's name and city, one match lost on purpose, confirmed."""
    star, name, city = _star()
    before = PersonRating.objects.get(person=star).display
    creator = _creator()
    client = as_user(api, creator)
    made = client.post(
        "/api/v1/tournaments/",
        {"name": "Fake Open", "slug": "fake-open", "published": True},
        "json",
    )
    assert made.status_code == 201, made.json()
    assert made.json()["rated"] is False
    fake = Tournament.objects.get(slug="fake-open")
    fake.league_rounds = 2
    fake.save()
    matches = _drawn_with(fake, creator, name, city)
    impostor = Seat.objects.get(team__tournament=fake, name=name)
    assert impostor.person_id != star.pk  # kept apart: a suggested match
    suggestion = NamesakeSuggestion.objects.get(person=impostor.person)
    assert suggestion.namesake_id == star.pk and suggestion.tournament == fake
    for match in matches:
        _confirm(match, creator, 0, 40)
    ratings_rebuild()
    assert PersonRating.objects.get(person=star).display == before
    assert not RatedGame.objects.filter(tournament=fake).exists()
    public = Client().get(f"/api/v1/people/{star.pk}/").json()
    assert {t["tournament"] for t in public["teams"]} == {"rated-cup"}
    # The creator cannot vouch for his own tournament.
    refused = client.patch("/api/v1/tournaments/fake-open/", {"rated": True}, "json")
    assert refused.status_code == 403
    assert refused.json()["code"] == "rating_not_trusted"
    assert "trusted creator" in str(refused.json())
    fake.refresh_from_db()
    assert fake.rated is False
    # Nor make one rated.
    again = client.post(
        "/api/v1/tournaments/",
        {"name": "Fake Two", "slug": "fake-two", "rated": True},
        "json",
    )
    assert again.status_code == 403 and again.json()["code"] == "rating_not_trusted"
    assert not Tournament.objects.filter(slug="fake-two").exists()


def test_the_settings_page_offers_rated_to_the_trusted_only():
    tournament = TournamentFactory(slug="cup", published=True, rated=False)
    plain = member(tournament, Role.ORGANIZER)
    client = Client()
    client.force_login(plain)
    page = client.get("/t/cup/settings/").content.decode()
    assert 'name="rated"' not in page
    # A forged field is ignored: the form has no such field for him.
    form = client.get("/t/cup/settings/").context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    data.update({"published": "on", "rated": "on", "time_zone": "UTC"})
    client.post("/t/cup/settings/", data)
    tournament.refresh_from_db()
    assert tournament.rated is False
    trusted = _trusted()
    _organize(tournament, trusted)
    client.force_login(trusted)
    page = client.get("/t/cup/settings/").content.decode()
    assert 'name="rated"' in page
    saved = client.post("/t/cup/settings/", data, follow=True)
    assert "The settings are saved." in saved.content.decode()
    tournament.refresh_from_db()
    assert tournament.rated is True and tournament.rated_by == trusted


def test_a_trusted_creator_rates_his_own_tournaments_only(api):
    trusted = _trusted()
    his = TournamentFactory(slug="his", published=True, rated=False)
    _organize(his, trusted)
    stranger = TournamentFactory(slug="stranger", published=True, rated=False)
    member(stranger, Role.ORGANIZER)
    client = as_user(api, trusted)
    assert client.patch("/api/v1/tournaments/his/", {"rated": True}, "json").json()[
        "rated"
    ]
    # An organizer of another's tournament he is not: no role, no rating.
    answer = client.patch("/api/v1/tournaments/stranger/", {"rated": True}, "json")
    assert answer.status_code in (403, 404)
    stranger.refresh_from_db()
    assert stranger.rated is False
    # A site administrator rates any tournament, and unmarks one.
    admin = as_user(api, _admin())
    done = admin.patch("/api/v1/tournaments/stranger/", {"rated": True}, "json")
    assert done.status_code == 200 and done.json()["rated"] is True
    undone = admin.patch("/api/v1/tournaments/his/", {"rated": False}, "json")
    assert undone.status_code == 200 and undone.json()["rated"] is False


def test_marking_a_tournament_rated_joins_its_namesakes_and_rates_it(api):
    star, name, city = _star()
    fake = TournamentFactory(slug="real-open", league_rounds=2, rated=False)
    organizer = member(fake, Role.ORGANIZER)
    matches = _drawn_with(fake, organizer, name, city)
    for match in matches:
        _confirm(match, organizer, 30, 10)
    newcomer = Seat.objects.get(team__tournament=fake, name=name).person
    assert newcomer.pk != star.pk
    admin = _admin()
    answer = as_user(api, admin).patch(
        "/api/v1/tournaments/real-open/", {"rated": True}, "json"
    )
    assert answer.status_code == 200, answer.json()
    seat = Seat.objects.get(team__tournament=fake, name=name)
    assert seat.person_id == star.pk
    assert not Person.objects.filter(pk=newcomer.pk).exists()
    assert not NamesakeSuggestion.objects.exists()
    merge = PersonChange.objects.get(person=star, kind="merge")
    assert merge.by == admin and merge.other_id == newcomer.pk
    ratings_rebuild()
    assert RatedGame.objects.filter(tournament=fake).count() == len(matches)


def test_a_site_administrator_answers_suggested_matches_on_the_people_page():
    first = TeamFactory(
        section=SectionFactory(tournament=TournamentFactory(slug="first")),
        captain_name="Anil Varghese",
    )
    known = _person(first, "Anil Varghese")
    drafts = [TournamentFactory(slug=f"draft-{i}", rated=False) for i in (1, 2)]
    newcomers = []
    for draft in drafts:
        team = TeamFactory(
            section=SectionFactory(tournament=draft),
            captain_name="anil  varghese",
            captain_city=first.captain_city,
        )
        newcomers.append(_person(team, "anil  varghese"))
    assert {s.namesake_id for s in NamesakeSuggestion.objects.all()} == {known.pk}
    client = Client()
    client.force_login(_admin())
    page = client.get("/people/").content.decode()
    assert "Suggested matches" in page and page.count('name="suggestion"') == 2
    one, two = NamesakeSuggestion.objects.order_by("pk")
    same = client.post(
        "/people/", {"suggestion": one.pk, "action": "accept"}, follow=True
    )
    assert "The two are one person now" in same.content.decode()
    assert not Person.objects.filter(pk=newcomers[0].pk).exists()
    apart = client.post(
        "/people/", {"suggestion": two.pk, "action": "dismiss"}, follow=True
    )
    assert "Kept as two people" in apart.content.decode()
    assert Person.objects.filter(pk=newcomers[1].pk).exists()
    assert not NamesakeSuggestion.objects.exists()
    # Answered already: said so, nothing changes.
    late = client.post(
        "/people/", {"suggestion": two.pk, "action": "accept"}, follow=True
    )
    assert "answered already" in late.content.decode()
    # Nobody else sees or answers them.
    organizer = member(drafts[1], Role.ORGANIZER)
    client.force_login(organizer)
    assert "Suggested matches" not in client.get("/people/").content.decode()
    assert (
        client.post("/people/", {"suggestion": 1, "action": "accept"}).status_code
        == 403
    )


def test_the_suggestions_api_is_for_site_administrators(api):
    first = TeamFactory(
        section=SectionFactory(tournament=TournamentFactory(slug="first")),
        captain_name="Mini Thomas",
    )
    TeamFactory(
        section=SectionFactory(tournament=TournamentFactory(slug="d", rated=False)),
        captain_name="Mini Thomas",
        captain_city=first.captain_city,
    )
    organizer = member(Tournament.objects.get(slug="d"), Role.ORGANIZER)
    assert as_user(api, organizer).get("/api/v1/people/suggestions/").status_code == (
        403
    )
    client = as_user(api, _admin())
    listed = client.get("/api/v1/people/suggestions/").json()["results"]
    assert len(listed) == 1 and listed[0]["tournament"] == "d"
    assert listed[0]["namesake"]["id"] == _person(first, "Mini Thomas").pk
    accepted = client.post(f"/api/v1/people/suggestions/{listed[0]['id']}/accept/")
    assert accepted.status_code == 200, accepted.json()
    assert {t["tournament"] for t in accepted.json()["teams"]} == {"first", "d"}
    gone = client.post(f"/api/v1/people/suggestions/{listed[0]['id']}/dismiss/")
    assert gone.status_code == 404 and gone.json()["detail"]


def test_a_strangers_draft_does_not_stop_the_players_organizers_hiding_him(api):
    tournament = TournamentFactory(slug="home", published=True)
    team = TeamFactory(
        section=SectionFactory(tournament=tournament), captain_name="Shy Player"
    )
    person = _person(team, "Shy Player")
    draft = TournamentFactory(slug="strangers-draft", published=False, rated=False)
    other = TeamFactory(
        section=SectionFactory(tournament=draft),
        captain_name="Shy Player",
        captain_city=team.captain_city,
    )
    # Joined by a site administrator's decision: the stranger's draft is his too.
    person_merge(person=person, other=_person(other, "Shy Player").pk, user=None)
    answer = as_user(api, member(tournament, Role.ORGANIZER)).patch(
        f"/api/v1/people/{person.pk}/", {"hidden": True}, "json"
    )
    assert answer.status_code == 200 and answer.json()["hidden"] is True
    # The draft's organizer is no organizer of the published one: refused.
    refused = as_user(api, member(draft, Role.ORGANIZER)).patch(
        f"/api/v1/people/{person.pk}/", {"hidden": False}, "json"
    )
    assert refused.status_code in (403, 404)
    assert Person.objects.get(pk=person.pk).hidden


def test_two_hundred_edits_of_a_counted_tournament_queue_one_rebuild(
    api, settings, monkeypatch
):
    """The worker busy (its sends held here): 200 PATCHes of the first day queue one
    rebuild; run, it serves every wish, and the next edit queues the next one. A
    draft's edits and an unrated tournament's queue none."""
    settings.RATINGS_AUTOMATIC = True
    _, organizer, matches = _league()
    _confirm(matches[0], organizer, 30, 10)
    ratings_rebuild()
    RebuildWanted.objects.all().delete()
    queued = []
    monkeypatch.setattr(
        ratings_receivers,
        "task_send_on_commit",
        lambda task, *args, **kwargs: queued.append(args),
    )
    client = as_user(api, organizer)
    for day in range(200):
        answer = client.patch(
            "/api/v1/tournaments/rated-cup/",
            {"starts_on": f"2027-{1 + day // 28:02d}-{1 + day % 28:02d}"},
            "json",
        )
        assert answer.status_code == 200, answer.json()
    assert queued == [(None,)]
    assert RebuildWanted.objects.count() == 200
    rebuilds = RebuildQueue.objects.get().rebuilds
    ratings_refresh_task.apply(args=[None])
    assert RebuildQueue.objects.get().rebuilds == rebuilds + 1
    assert not RebuildWanted.objects.exists()
    assert RebuildQueue.objects.get().queued_at is None
    client.patch("/api/v1/tournaments/rated-cup/", {"starts_on": "2028-01-01"}, "json")
    assert len(queued) == 2
    # Drafts and unrated tournaments: no wish, no task.
    draft = TournamentFactory(slug="a-draft", published=False, rated=True)
    unrated = TournamentFactory(slug="unrated", published=True, rated=False)
    for other, edit in ((draft, {}), (unrated, {"published": False})):
        mine = as_user(api, member(other, Role.ORGANIZER))
        for day in (1, 2, 3):
            change = {"starts_on": f"2027-05-0{day}"} | (edit if day == 2 else {})
            answer = mine.patch(f"/api/v1/tournaments/{other.slug}/", change, "json")
            assert answer.status_code == 200, answer.json()
    assert len(queued) == 2 and RebuildWanted.objects.count() == 1


def test_a_wish_while_a_rebuild_runs_queues_the_next(settings, monkeypatch):
    settings.RATINGS_AUTOMATIC = True
    tournament, _, _ = _league()
    queued = []
    monkeypatch.setattr(
        ratings_receivers,
        "task_send_on_commit",
        lambda task, *args, **kwargs: queued.append(args),
    )
    from tournament.services import tournament_update

    tournament_update(tournament=tournament, starts_on="2027-03-01")
    assert len(queued) == 1
    from scoring.ratings import services

    services.rebuild_started()  # the task has begun: what it reads is committed
    tournament_update(tournament=tournament, starts_on="2027-03-02")
    assert len(queued) == 2


def test_merging_two_teammates_is_refused(api):
    team = TeamFactory(
        section=SectionFactory(tournament=TournamentFactory(slug="one")),
        captain_name="Jose",
    )
    names = list(team.players.values_list("name", flat=True))
    first, second = (_person(team, n) for n in names[:2])
    answer = as_user(api, _admin()).post(
        f"/api/v1/people/{first.pk}/merge/", {"other": second.pk}, "json"
    )
    assert answer.status_code == 409 and answer.json()["code"] == "teammates"
    assert Person.objects.filter(pk=second.pk).exists()


def test_crossed_merges_answer_the_second_with_a_conflict_not_a_crash():
    """Two site administrators at once, A into B and B into A: the second waited for
    the first's locks (taken by id, in one order) and finds its person merged away."""
    one = TeamFactory(
        section=SectionFactory(tournament=TournamentFactory(slug="x")),
        captain_name="Ravi",
    )
    two = TeamFactory(
        section=SectionFactory(tournament=TournamentFactory(slug="y")),
        captain_name="Ravi K",
    )
    a, b = _person(one, "Ravi"), _person(two, "Ravi K")
    stale_b = Person.objects.get(pk=b.pk)
    person_merge(person=a, other=b.pk, user=None)
    with pytest.raises(ConflictError) as merged_away:
        person_merge(person=stale_b, other=a.pk, user=None)
    assert merged_away.value.code == "person_gone"
    with pytest.raises(ConflictError) as split_away:
        person_split(person=stale_b, players=[1], user=None)
    assert split_away.value.code == "person_gone"
    assert Seat.objects.filter(person=a).count() == 2


def test_the_refusal_to_rate_speaks_malayalam(api):
    tournament = TournamentFactory(slug="ml-cup", published=True, rated=False)
    client = as_user(api, member(tournament, Role.ORGANIZER))
    answer = client.patch(
        "/api/v1/tournaments/ml-cup/",
        {"rated": True},
        "json",
        HTTP_ACCEPT_LANGUAGE="ml",
    )
    assert answer.status_code == 403
    assert "വിശ്വസ്ത ക്രിയേറ്ററോ" in answer.json()["detail"]


@pytest.mark.parametrize("language", ["en", "ml"])
def test_a_site_administrator_counts_a_tournament_from_its_page(language):
    tournament = TournamentFactory(slug="page-cup", published=True, rated=False)
    organizer = member(tournament, Role.ORGANIZER)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(organizer)
    page = client.get("/t/page-cup/").content.decode()
    # The organizer reads who may count it, without a button of his own.
    said = {
        "en": "not rated: its matches move nobody’s rating until a site "
        "administrator, or a creator the site trusts, marks it rated",
        "ml": "റേറ്റഡ് അല്ല: സൈറ്റ് അഡ്മിനിസ്ട്രേറ്ററോ",
    }[language]
    assert said in page and "/t/page-cup/rated/" not in page
    refused = client.post("/t/page-cup/rated/", {"rated": "1"}, follow=True)
    assert refused.status_code == 403
    assert {"en": "trusted creator", "ml": "വിശ്വസ്ത ക്രിയേറ്ററോ"}[language] in (
        refused.content.decode()
    )
    # The rule alone: not the stranger's advice to ask the organizer, who asked.
    assert {"en": "ask the organizer", "ml": "സംഘാടകനോട് ചോദിക്കുക"}[language] not in (
        refused.content.decode()
    )
    tournament.refresh_from_db()
    assert tournament.rated is False
    client.force_login(_admin())
    assert "/t/page-cup/rated/" in client.get("/t/page-cup/").content.decode()
    done = client.post("/t/page-cup/rated/", {"rated": "1"}, follow=True)
    assert {"en": "counts for the ratings now", "ml": "ഇനി റേറ്റിംഗിൽ കണക്കാക്കും"}[
        language
    ] in done.content.decode()
    assert {
        "en": "rated: its confirmed matches count for the players’ ratings\n",
        "ml": "റേറ്റഡ്: ഇതിലെ സ്ഥിരീകരിച്ച മത്സരങ്ങൾ",
    }[language] in client.get("/t/page-cup/").content.decode()
    tournament.refresh_from_db()
    assert tournament.rated is True
