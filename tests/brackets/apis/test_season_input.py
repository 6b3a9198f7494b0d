"""A season's table of points as the administrator writes it (issue 51): every place
and every points a whole number in the digits 0 to 9 (Python's int() also reads "١",
"𝟙" and "1_0"), each place once ("1" and "01" twice was one silently dropped), on
the API and on the seasons page in both languages; and the ratings list of a season
that does not exist is bad input, as the schema documents (it was an undocumented
404)."""

import pytest
from django.test import Client

from brackets.domain.seasons import points_read, whole_number
from brackets.models import Season
from tests.conftest import as_user
from tests.factories import TournamentFactory, UserFactory
from tournament.accounts.services import site_role_grant
from tournament.domain.errors import RuleError

pytestmark = pytest.mark.django_db
SEASONS = "/api/v1/seasons/"


@pytest.fixture
def admin(db):
    user = UserFactory(username="site-admin")
    site_role_grant(user=user, role="administrator")
    TournamentFactory(slug="onam-cup", status="league")
    return user


@pytest.mark.parametrize("written", ["١", "𝟙", "1_0", "+1", "-1", "1.5", "", " ", "٣٠"])
def test_only_the_digits_0_to_9_make_a_number(written):
    assert whole_number(written) is None
    with pytest.raises(RuleError) as refused:
        points_read([("1", written)])
    assert refused.value.code == "not_whole_number"
    assert refused.value.field == "points"
    assert "in the digits 0 to 9 alone" in refused.value.message


def test_ascii_numbers_and_json_numbers_are_read():
    assert points_read([("1", " 100 "), (2, 75), ("3\r", "60\n")]) == {
        1: 100,
        2: 75,
        3: 60,
    }
    assert whole_number(True) is None  # JSON's true is not 1


@pytest.mark.parametrize(
    "points",
    [{"١": 100}, {"1": "𝟙"}, {"1_0": 100}, {"1": "1_0"}, {"1": 100, "𝟚": 50}],
)
def test_the_api_refuses_numbers_int_would_read(api, admin, points):
    answer = as_user(api, admin).post(
        SEASONS,
        {"name": "Season", "tournaments": ["onam-cup"], "points": points},
        "json",
    )
    assert answer.status_code == 400, answer.json()
    assert "digits 0 to 9" in str(answer.json()["points"])
    assert not Season.objects.exists()


def test_the_api_refuses_a_place_given_twice(api, admin):
    answer = as_user(api, admin).post(
        SEASONS,
        {
            "name": "Season",
            "tournaments": ["onam-cup"],
            "points": {"1": 100, "01": 90, "2": 50},
        },
        "json",
    )
    assert answer.status_code == 400
    assert answer.json() == {
        "points": ["place 1 is given twice (100 and 90 points): give each place once"]
    }
    made = as_user(api, admin).post(
        SEASONS,
        {"name": "Season", "tournaments": ["onam-cup"], "points": {"1": "100"}},
        "json",
    )
    assert made.status_code == 201 and made.json()["points"] == {"1": 100}


@pytest.mark.parametrize(
    ("language", "twice", "digits"),
    [
        (
            "en",
            "place 1 is given twice (100 and 90 points): give each place once",
            "is not written in the digits 0 to 9 alone: places and points are whole "
            "numbers, 0 or more",
        ),
        (
            "ml",
            "സ്ഥാനം 1 രണ്ടുതവണ നൽകിയിരിക്കുന്നു",
            "0 മുതൽ 9 വരെയുള്ള അക്കങ്ങളിൽ മാത്രം എഴുതിയതല്ല",
        ),
    ],
)
def test_the_seasons_page_says_which_rule_in_the_pages_language(
    admin, language, twice, digits
):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(admin)
    form = {"name": "Season", "tournaments": ["onam-cup"]}
    for points, words in [
        ("1: 100, 2: 75, 1: 90", twice),
        ("1: 100\n01: 90", twice),
        ("1: ١٠٠", digits),
        ("𝟙: 100", digits),
        ("1: 1_0", digits),
    ]:
        answer = client.post("/seasons/", {**form, "points": points})
        assert answer.status_code == 400, points
        assert words in answer.content.decode(), points
    assert not Season.objects.exists()
    made = client.post("/seasons/", {**form, "points": "1: 100\r\n2: 75"})
    assert made.status_code == 302
    assert Season.objects.get().points == {"1": 100, "2": 75}


def test_the_ratings_of_an_unknown_season_are_bad_input_as_documented(api, admin):
    answer = api.get("/api/v1/ratings/", {"season": "no-such-season"})
    assert answer.status_code == 400
    assert answer.json() == {
        "season": ["there is no season no-such-season; GET /api/v1/seasons/ lists them"]
    }
    schema = api.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/v1/ratings/"]["get"]
    assert "400" in operation["responses"]
    assert "404" not in operation["responses"]  # and none is answered
    as_user(api, admin).post(
        SEASONS, {"name": "Season", "tournaments": ["onam-cup"]}, "json"
    )
    assert api.get("/api/v1/ratings/", {"season": "season"}).status_code == 200
