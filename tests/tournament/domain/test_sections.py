"""Section placement (rules.md §5, 000 §6.1): table-driven, plus properties."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.domain.errors import RuleError, RuleErrors
from tournament.domain.sections import (
    US_STATES,
    USA,
    Placement,
    SectionArea,
    check_section_areas,
    normalize_areas,
    normalize_captain,
    normalize_country,
    normalize_state,
    place_team,
    roster,
)

SECTIONS = [
    SectionArea("intl", "International", international=True),
    SectionArea("tri", "Tri-State", states=("NJ", "NY", "CT")),
    SectionArea("chi", "Chicago", cities=("Chicago", "Des Plaines", "St. Louis")),
    SectionArea("mw", "Midwest", states=("IL", "MI", "MO")),
    SectionArea("tx", "Texas", states=("TX",), cities=("Tulsa",)),
]


@pytest.mark.parametrize(
    ("city", "state", "country", "section", "why"),
    [
        ("Edison", "NJ", "USA", "tri", Placement.STATE),
        ("Edison", "nj", "USA", "tri", Placement.STATE),
        ("Edison", "New Jersey", "usa", "tri", Placement.STATE),
        ("Yonkers", "ny", "United States", "tri", Placement.STATE),
        ("Yonkers", "NY", "U.S.A.", "tri", Placement.STATE),
        ("Yonkers", "N.Y.", "US", "tri", Placement.STATE),
        ("Yonkers", "NY", "United States of America", "tri", Placement.STATE),
        ("Chicago", "IL", "USA", "chi", Placement.CITY),  # city wins over state
        ("chicago ", "il", "USA", "chi", Placement.CITY),
        ("Des  Plaines", "IL", "USA", "chi", Placement.CITY),
        ("St Louis", "MO", "USA", "chi", Placement.CITY),  # dots and case do not count
        ("Naperville", "Illinois", "USA", "mw", Placement.STATE),
        ("Tulsa", "OK", "USA", "tx", Placement.CITY),  # a city listed outside its state
        ("Houston", "tx", "usa", "tx", Placement.STATE),
        ("Toronto", "", "Canada", "intl", Placement.INTERNATIONAL),
        ("Kochi", "", "India", "intl", Placement.INTERNATIONAL),
        ("Chicago", "", "India", "intl", Placement.INTERNATIONAL),  # not the US Chicago
        ("Dubai", "", "United Arab Emirates", "intl", Placement.INTERNATIONAL),
    ],
)
def test_team_is_placed_by_city_then_state_then_country(
    city, state, country, section, why
):
    captain = normalize_captain(name="Jose", city=city, state=state, country=country)
    assert place_team(captain, SECTIONS) == (section, why)


def test_us_team_without_a_section_is_refused_naming_state_and_sections():
    captain = normalize_captain(name="Jose", city="Denver", state="co", country="USA")
    with pytest.raises(RuleError) as refused:
        place_team(captain, SECTIONS)
    error = refused.value
    assert error.code == "no_section"
    assert error.field == "state"
    assert "Denver, CO (Colorado)" in error.message
    for name in ("Tri-State", "Chicago", "Midwest", "Texas"):
        assert name in error.message
    assert error.params["sections"] == [s.name for s in SECTIONS]


def test_refusal_when_no_us_section_exists_says_so():
    captain = normalize_captain(name="Jose", city="Austin", state="TX", country="USA")
    with pytest.raises(RuleError, match="no US section yet"):
        place_team(captain, SECTIONS[:1])


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("nj", "NJ"),
        ("NJ", "NJ"),
        (" n.j. ", "NJ"),
        ("New Jersey", "NJ"),
        ("new  jersey", "NJ"),
        ("District of Columbia", "DC"),
        ("Washington DC", "DC"),
        ("tx", "TX"),
        ("Texas", "TX"),
    ],
)
def test_state_codes_and_names_normalise(typed, code):
    assert normalize_state(typed) == code


@pytest.mark.parametrize("typed", ["", "XX", "Jersey", "N", "Ontario", "12"])
def test_unknown_state_is_refused_naming_the_field(typed):
    with pytest.raises(RuleError) as refused:
        normalize_state(typed)
    assert refused.value.field == "state"
    assert refused.value.code == "unknown_state"


@pytest.mark.parametrize(
    "typed",
    [
        "USA",
        "usa",
        "U.S.A.",
        "US",
        "u.s.",
        "United States",
        "united states of america",
        "America",
        " USA ",
    ],
)
def test_every_spelling_of_the_united_states_is_usa(typed):
    assert normalize_country(typed) == USA


@pytest.mark.parametrize(
    ("typed", "kept"),
    [("India", "India"), (" Canada ", "Canada"), ("Ruritania ", "Ruritania")],
)
def test_other_countries_are_kept_as_typed(typed, kept):
    assert normalize_country(typed) == kept


def test_us_captain_needs_city_and_state_and_all_errors_come_at_once():
    with pytest.raises(RuleErrors) as refused:
        normalize_captain(name="", city="", state="", country="USA")
    assert {e.field for e in refused.value.errors} == {"name", "city", "state"}


def test_captain_outside_the_usa_keeps_the_region_as_written_for_the_record():
    captain = normalize_captain(
        name="Jose", city="Kochi", state=" Kerala ", country="India"
    )
    assert captain.state == "Kerala"
    assert captain.country == "India"
    assert place_team(captain, SECTIONS) == ("intl", Placement.INTERNATIONAL)


@given(st.sampled_from(sorted(US_STATES)), st.booleans(), st.booleans())
def test_every_state_normalises_from_code_or_name_in_any_case(code, by_name, upper):
    typed = US_STATES[code] if by_name else code
    typed = typed.upper() if upper else typed.lower()
    assert normalize_state(typed) == code


@given(
    st.sampled_from(sorted(US_STATES)),
    st.text(alphabet="abcdefghij ", min_size=1, max_size=12).filter(str.strip),
)
def test_placement_only_ever_picks_a_section_that_lists_the_city_or_state(state, city):
    captain = normalize_captain(name="Jose", city=city, state=state, country="USA")
    try:
        key, why = place_team(captain, SECTIONS)
    except RuleError as error:
        assert error.code == "no_section"
        assert not any(state in s.states for s in SECTIONS)
        return
    section = next(s for s in SECTIONS if s.key == key)
    if why == Placement.CITY:
        assert " ".join(city.split()).casefold() in {
            c.casefold() for c in section.cities
        }
    else:
        assert why == Placement.STATE and state in section.states
        assert not any(
            " ".join(city.split()).casefold() in {c.casefold() for c in s.cities}
            for s in SECTIONS
        )


def test_a_state_or_city_is_listed_by_one_section_only():
    with pytest.raises(RuleErrors) as refused:
        check_section_areas(
            [
                SectionArea(1, "A", states=("NJ",), cities=("Chicago",)),
                SectionArea(2, "B", states=("NJ", "NY"), cities=("chicago",)),
            ]
        )
    assert {e.code for e in refused.value.errors} == {"state_taken", "city_taken"}
    assert "NJ is already listed by section A" in refused.value.message


def test_international_lists_no_places():
    with pytest.raises(RuleErrors, match="lists no states"):
        check_section_areas([SectionArea(1, "International", ("NJ",), (), True)])


def test_section_areas_normalise_and_deduplicate():
    states, cities = normalize_areas(
        ["nj", "New York", "NJ"], ["Chicago", " chicago", "Niles"]
    )
    assert states == ("NJ", "NY")
    assert cities == ("Chicago", "Niles")


@pytest.mark.parametrize(
    ("players", "size", "expected"),
    [
        (["Anil", "Biju"], 3, ("Jose", "Anil", "Biju")),  # captain added in front
        (
            ["Anil", "Jose", "Biju"],
            3,
            ("Jose", "Anil", "Biju"),
        ),  # captain moved in front
        (["anil", "JOSE"], 2, ("JOSE", "anil")),  # the captain matched in any case
        (["Anil"], 2, ("Jose", "Anil")),
        (["Anil", "Biju", "Cherian"], 4, ("Jose", "Anil", "Biju", "Cherian")),
    ],
)
def test_roster_puts_the_captain_first_and_counts_the_captain(players, size, expected):
    assert roster("Jose", players, size) == expected


@pytest.mark.parametrize(
    ("players", "code"),
    [
        (["Anil"], "team_size"),
        (["Anil", "Biju", "Cherian"], "team_size"),
        (["Anil", "anil"], "duplicate_player"),
        (["Anil", " "], "blank"),
    ],
)
def test_roster_refuses_wrong_sizes_and_duplicates(players, code):
    with pytest.raises(RuleError) as refused:
        roster("Jose", players, 3)
    assert refused.value.code == code
    assert refused.value.field == "players"
