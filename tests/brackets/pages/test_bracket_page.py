"""The bracket page and the knockout score sheet's tie-break, as people see them."""

import pytest
from django.test import Client

from brackets.models import Bracket
from tests.brackets.knockout import bracket, final_league, play_sheet
from tests.conftest import as_user
from tests.factories import member
from tests.scoring.league import confirm, deals_for, enter
from tournament.domain.types import Role

pytestmark = pytest.mark.django_db

SLUG = "page-cup"
PAGE = f"/t/{SLUG}/bracket/"


@pytest.fixture
def league(db):
    return final_league(2, 6, qualifiers=8, slug=SLUG)


def _seed(api, organizer, **body):
    as_user(api, organizer)
    answer = api.post(f"/api/v1/tournaments/{SLUG}/knockout/", body, "json")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def test_before_seeding_everyone_sees_it_is_to_come(league):
    page = Client().get(PAGE)
    assert page.status_code == 200
    assert "The knockout is not seeded yet" in page.content.decode()
    assert "Seed the knockout" not in page.content.decode()


def test_an_organizer_seeds_it_from_the_page(league):
    tournament, organizer = league
    client = Client()
    client.force_login(organizer)
    page = client.get(PAGE).content.decode()
    assert "The league is final." in page
    answer = client.post(
        PAGE,
        {
            "qualifiers": 6,
            "early": 18,
            "quarter_final": 12,
            "semi_final": 20,
            "second_runner_up": 20,
            "final": 14,
        },
    )
    assert answer.status_code == 302
    bracket_row = Bracket.objects.get(tournament=tournament)
    assert bracket_row.qualifiers == 6
    assert bracket_row.deals == {
        "quarter_final": 12,
        "semi_final": 20,
        "second_runner_up": 20,
        "final": 14,
    }
    page = client.get(PAGE).content.decode()
    assert "Quarter-finals" in page and "Byes" in page


def test_a_refused_seeding_says_why_on_the_form(league):
    _tournament, organizer = league
    client = Client()
    client.force_login(organizer)
    answer = client.post(
        PAGE,
        {
            "qualifiers": 40,
            "early": 18,
            "quarter_final": 18,
            "semi_final": 24,
            "second_runner_up": 24,
            "final": 18,
        },
    )
    assert answer.status_code == 400
    assert "40 teams cannot qualify" in answer.content.decode()
    assert not Bracket.objects.exists()


def test_a_scorer_cannot_seed(league):
    tournament, _ = league
    client = Client()
    client.force_login(member(tournament, Role.SCORER))
    assert client.post(PAGE, {"qualifiers": 8}).status_code == 403


def test_the_bracket_shows_seeds_byes_scores_and_tiebreak_marks(api, league):
    _tournament, organizer = league
    data = _seed(api, organizer, qualifiers=6, deals={"quarter_final": 4})
    quarter = data["rounds"][0]["matches"][0]
    enter(api, quarter["match"], deals_for(2, 2, 4))
    enter(api, quarter["match"], deals_for(1, 1), first=5)
    page = Client().get(PAGE).content.decode()
    assert "toss due" in page
    sheet = Client().get(f"/matches/{quarter['match']}/").content.decode()
    assert "still equal after deal 6" in sheet
    url = f"/api/v1/matches/{quarter['match']}/"
    version = api.get(url).json()["version"]
    api.post(
        url + "toss/", {"winner": "A", "first_dealer": "B", "version": version}, "json"
    )
    enter(api, quarter["match"], deals_for(1, 0), first=7)
    confirm(api, quarter["match"])
    page = Client().get(PAGE).content.decode()
    assert 'title="decided by the deal after the toss">toss</span>' in page
    assert f"Winner of match {quarter['number']}" not in page  # the place is filled
    assert data["seeds"][0]["team_name"] in page
    assert "Second runner-up match" in page and "best of 3" in page


def test_the_scorer_records_the_toss_on_the_score_page(api, league):
    tournament, organizer = league
    data = _seed(api, organizer, deals={"quarter_final": 4})
    quarter = data["rounds"][0]["matches"][0]["match"]
    enter(api, quarter, deals_for(2, 2, 4))
    enter(api, quarter, deals_for(1, 1), first=5)
    scorer = member(tournament, Role.SCORER)
    client = Client()
    client.force_login(scorer)
    page = client.get(f"/matches/{quarter}/score/").content.decode()
    assert "Record the toss first" in page and 'id="toss-form"' in page
    # In Malayalam the toss's winner chooses who deals (ചീട്ട് കൊടുക്കുക), not who
    # puts a card down (ഇടുക reads as leading; issue 52).
    said = client.get(
        f"/matches/{quarter}/score/", HTTP_ACCEPT_LANGUAGE="ml"
    ).content.decode()
    form = said.split('id="toss-form"', 1)[1].split("</form>", 1)[0]
    assert "ആദ്യം ചീട്ട് കൊടുക്കുന്നത്" in form
    assert "ഇടുന്നത്" not in form and "ഇടും" not in said
    version = api.get(f"/api/v1/matches/{quarter}/").json()["version"]
    answer = client.post(
        f"/matches/{quarter}/score/",
        {
            "action": "toss",
            "toss-winner": "B",
            "toss-first_dealer": "B",
            "toss-version": version,
        },
        follow=True,
    )
    assert "Toss won by B; B deals deal 7" in answer.content.decode()
    sheet = api.get(f"/api/v1/matches/{quarter}/").json()
    assert sheet["tiebreak"]["phase"] == "sudden_death"
    assert sheet["missing"] == [7]


def test_query_counts_do_not_grow_with_the_bracket(api, db, django_assert_num_queries):
    counts = []
    for slug, sections, per_section, qualifiers in (
        ("small-ko", 2, 4, 4),
        ("large-ko", 2, 13, 24),
    ):
        _tournament, organizer = final_league(
            sections, per_section, qualifiers=qualifiers, slug=slug
        )
        as_user(api, organizer)
        data = api.post(f"/api/v1/tournaments/{slug}/knockout/", {}, "json").json()
        play_sheet(api, data["rounds"][0]["matches"][0]["match"], 20, 4, 18)
        api.force_authenticate(None)
        with django_assert_num_queries(5) as api_queries:
            bracket(api, slug)
        with django_assert_num_queries(5) as page_queries:
            assert Client().get(f"/t/{slug}/bracket/").status_code == 200
        counts.append((len(api_queries), len(page_queries)))
    assert counts[0] == counts[1]


def test_the_knockout_has_one_set_of_names_on_every_page(api, league):
    """Issue 41: the bracket said "Quarter-finals" while the desk, the venue screen,
    the Matches tab and the links said "Knockout round 1". One name everywhere, in
    English and in Malayalam; the Links tab names the match each table plays."""
    tournament, organizer = league
    tournament.published = True
    tournament.save()
    data = _seed(api, organizer, qualifiers=8)
    quarter = data["rounds"][0]["matches"][0]
    team = quarter["team_a"]
    staff = Client()
    staff.force_login(organizer)
    pages = [
        f"/t/{SLUG}/desk/",
        f"/t/{SLUG}/screen/",
        f"/t/{SLUG}/matches/",
        f"/t/{SLUG}/links/",
        f"/matches/{quarter['match']}/",
        f"/t/{SLUG}/teams/{team}/",
        f"/t/{SLUG}/where/?q={quarter['team_a_name']}",
        PAGE,
    ]
    for language, name in (("en", "Quarter-finals"), ("ml", "ക്വാർട്ടർ ഫൈനൽ")):
        for url in pages:
            page = staff.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
            assert name in page, (language, url)
            assert "Knockout round" not in page and "നോക്കൗട്ട് റൗണ്ട്" not in page, url
    links = staff.get(f"/t/{SLUG}/links/").content.decode()
    assert (
        f"Quarter-finals: {quarter['team_a_name']} v {quarter['team_b_name']}" in links
    )
    # The workbook's Bracket sheet names its rounds the same way (in English).
    from tests.scoring.excel import table, workbook

    book = api.get(f"/api/v1/tournaments/{SLUG}/export.xlsx")
    assert book.status_code == 200
    named = {r["Round"] for r in table(workbook(book.content), "Bracket")}
    assert {"Quarter-finals", "Semi-finals", "Second runner-up match", "Final"} <= named
    bracket_page = Client().get(PAGE, HTTP_ACCEPT_LANGUAGE="ml").content.decode()
    assert "സെമി ഫൈനൽ" in bracket_page and "രണ്ടാം റണ്ണർ-അപ്പ് മത്സരം" in bracket_page
    assert "Semi-finals" not in bracket_page and "Second runner-up match" not in (
        bracket_page
    )


def test_a_sheet_of_the_finals_round_names_its_own_match(api, db):
    """The final's round holds two matches: its sheets' pages say which one each is
    ("Final, game 2", "Second runner-up match"), not the round's name for both, in
    English and in Malayalam; the printed sheet names the round."""
    from tests.brackets.knockout import bracket as bracket_of
    from tests.brackets.knockout import matches_of
    from tests.scoring.league import confirm

    tournament, organizer = final_league(2, 4, qualifiers=4, slug="four-names")
    tournament.published = True
    tournament.save()
    as_user(api, organizer)
    short = {"semi_final": 4, "second_runner_up": 4, "final": 4}
    answer = api.post(
        "/api/v1/tournaments/four-names/knockout/", {"deals": short}, "json"
    )
    assert answer.status_code == 201, answer.json()
    for semi in answer.json()["rounds"][0]["matches"]:
        play_sheet(api, semi["match"], 4, 2, 4)
        confirm(api, semi["match"])
    played = matches_of(bracket_of(api, "four-names"))
    final = next(m for m in played.values() if m["kind"] == "final")
    third = next(m for m in played.values() if m["kind"] == "second_runner_up")
    play_sheet(api, final["match"], 4, 2, 4)
    confirm(api, final["match"])
    game_two = matches_of(bracket_of(api, "four-names"))[final["number"]]["match"]
    assert game_two != final["match"]
    staff = Client()
    staff.force_login(organizer)
    said = {
        "en": ("Final, game 1", "Final, game 2", "Second runner-up match"),
        "ml": ("ഫൈനൽ, ഗെയിം 1", "ഫൈനൽ, ഗെയിം 2", "രണ്ടാം റണ്ണർ-അപ്പ് മത്സരം"),
    }
    for language, (first, second, runner_up) in said.items():
        for sheet, name in (
            (final["match"], first),
            (game_two, second),
            (third["match"], runner_up),
        ):
            urls = [f"/matches/{sheet}/"]
            if sheet != final["match"]:  # game 1 is locked: its score page is closed
                urls.append(f"/matches/{sheet}/score/")
            for url in urls:
                answer = staff.get(url, HTTP_ACCEPT_LANGUAGE=language)
                assert answer.status_code == 200, url
                page = answer.content.decode()
                crumbs = page.split('class="crumbs"', 1)[1].split("</p>", 1)[0]
                assert name in crumbs, (language, url, crumbs)
    printed = staff.get(f"/matches/{third['match']}/print/").content.decode()
    assert "Final and second runner-up match" in printed


@pytest.mark.parametrize("language", ["en", "ml"])
def test_a_sheet_decided_by_its_totals_has_no_tiebreak_notice(api, league, language):
    """A knockout sheet decided after its stipulated deals had no tie-break: its
    pages showed an empty tie-break notice (a yellow bar) above the checkpoints."""
    _tournament, organizer = league
    data = _seed(api, organizer, deals={"quarter_final": 4})
    quarter = data["rounds"][0]["matches"][0]["match"]
    enter(api, quarter, deals_for(5, 2, 4))
    client = Client()
    client.force_login(organizer)
    client.cookies["django_language"] = language
    for url in (f"/matches/{quarter}/", f"/matches/{quarter}/score/"):
        page = client.get(url).content.decode()
        assert 'class="scoreboard"' in page
        assert "tiebreak notice" not in page, url
    # A sheet the two extra deals decided still says so.
    tied = data["rounds"][0]["matches"][1]["match"]
    enter(api, tied, deals_for(2, 2, 4))
    enter(api, tied, deals_for(2, 0, 2), first=5)
    page = client.get(f"/matches/{tied}/").content.decode()
    assert "tiebreak notice phase-decided" in page
    said = {
        "en": "Equal after deal 4: the two extra deals decided it.",
        "ml": "കളി 4 കഴിഞ്ഞപ്പോൾ തുല്യം: രണ്ട് അധിക കളികൾ ഫലം തീരുമാനിച്ചു.",
    }
    assert said[language] in page
