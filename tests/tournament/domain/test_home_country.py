"""A tournament outside the USA (rules.md §5): its home country's captains are placed
by city or region, everyone else plays in International; country spellings are one
country; regions match without regard to case, spaces or script variants."""

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tournament.domain.errors import RuleError, RuleErrors
from tournament.domain.sections import (
    USA,
    Placement,
    SectionArea,
    area_key,
    check_home_country,
    check_section_areas,
    normalize_areas,
    normalize_captain,
    normalize_country,
    place_team,
    same_country,
)

INDIA = "India"
KERALA = [
    SectionArea("intl", "International", international=True),
    SectionArea("ekm", "Ernakulam", cities=("Kochi", "Aluva")),
    SectionArea("tsr", "Thrissur", states=("Kerala-North",)),
    SectionArea("tvm", "Thiruvananthapuram", states=("Kerala South",)),
]


def _placed(city, state, country, home=INDIA, sections=KERALA):
    captain = normalize_captain(
        name="Anil", city=city, state=state, country=country, home=home
    )
    return place_team(captain, sections, home)


@pytest.mark.parametrize(
    ("city", "state", "country", "section", "why"),
    [
        ("Kochi", "Kerala-North", "India", "ekm", Placement.CITY),  # city first
        ("kochi", "", "india", "ekm", Placement.CITY),
        ("ALUVA", "", "Bharat", "ekm", Placement.CITY),
        ("Chalakudy", "kerala north", "India", "tsr", Placement.STATE),
        ("Chalakudy", "KERALA NORTH", "ഇന്ത്യ", "tsr", Placement.STATE),
        ("Chalakudy", "KeralaNorth", "India", "tsr", Placement.STATE),
        (
            "Chalakudy",
            "Ｋｅｒａｌａ－Ｎｏｒｔｈ",
            "India",
            "tsr",
            Placement.STATE,
        ),  # NFKC
        ("Kollam", "Kerala_South", "India", "tvm", Placement.STATE),
        ("Edison", "NJ", "USA", "intl", Placement.INTERNATIONAL),
        ("Kochi", "", "USA", "intl", Placement.INTERNATIONAL),  # not Kerala's Kochi
        ("Dubai", "", "U.A.E.", "intl", Placement.INTERNATIONAL),
    ],
)
def test_india_places_its_captains_by_city_then_region(
    city, state, country, section, why
):
    assert _placed(city, state, country) == (section, why)


def test_a_us_captain_abroad_needs_no_state_but_a_given_one_is_a_code():
    captain = normalize_captain(
        name="Jo", city="Edison", state="", country="USA", home=INDIA
    )
    assert captain.state == ""
    captain = normalize_captain(
        name="Jo", city="Edison", state="new jersey", country="USA", home=INDIA
    )
    assert captain.state == "NJ"


def test_a_home_captain_needs_a_city_and_the_message_names_the_country():
    with pytest.raises(RuleErrors) as refused:
        normalize_captain(name="Anil", city="", state="", country="India", home=INDIA)
    (error,) = refused.value.errors
    assert error.field == "city"
    assert "India" in str(error)


def test_a_home_team_no_section_takes_is_refused_naming_city_region_and_sections():
    with pytest.raises(RuleError) as refused:
        _placed("Kannur", "Malabar", "India")
    error = refused.value
    assert error.code == "no_section"
    assert "Kannur" in str(error) and "Malabar" in str(error)
    assert "Ernakulam (Kochi, Aluva)" in str(error)
    with pytest.raises(RuleError) as refused:
        _placed("Kannur", "", "India", sections=KERALA[:1])
    assert "no section for India" in str(refused.value)
    assert refused.value.field == "city"


def test_section_regions_outside_the_usa_are_kept_as_written_once():
    states, cities = normalize_areas(
        ["Kerala-North", " kerala north ", "Malabar"], ["Kochi"], home=INDIA
    )
    assert states == ("Kerala-North", "Malabar")
    assert cities == ("Kochi",)
    with pytest.raises(RuleErrors):  # the USA still wants state codes
        normalize_areas(["Kerala-North"], [], home=USA)


def test_a_region_is_listed_by_one_section_only_whatever_its_spelling():
    with pytest.raises(RuleErrors) as refused:
        check_section_areas(
            [
                SectionArea(1, "A", states=("Kerala-North",)),
                SectionArea(2, "B", states=("kerala north",)),
            ]
        )
    assert refused.value.errors[0].code == "state_taken"


@pytest.mark.parametrize(
    ("spellings", "name"),
    [
        (["UAE", "U.A.E.", "United Arab Emirates", "uae "], "United Arab Emirates"),
        (["UK", "U.K.", "United Kingdom", "Great Britain"], "United Kingdom"),
        (["India", "Bharat", "INDIA", "ഇന്ത്യ"], "India"),
        (["USA", "U.S.", "United States"], USA),
    ],
)
def test_spellings_of_one_country_are_one_name(spellings, name):
    assert {normalize_country(s) for s in spellings} == {name}


def test_the_home_country_is_required_and_normalised():
    assert check_home_country(" bharat ") == "India"
    with pytest.raises(RuleError) as refused:
        check_home_country("  ")
    assert refused.value.field == "home_country"


def test_malayalam_chillu_encodings_are_one_region():
    atomic = "കേരളം വടക്ക\u0d7b"  # atomic chillu n
    old = "കേരളം വടക്ക\u0d28\u0d4d\u200d"  # na + virama + zero width joiner
    assert area_key(atomic) == area_key(old)
    assert area_key("കൊച്ചി") != area_key("കോച്ചി")  # vowel signs are letters


REGION = st.text(
    st.characters(categories=("L", "N"), exclude_characters="\u0130"),
    min_size=1,
    max_size=12,
)
COUNTRIES = st.sampled_from(["India", "USA", "Canada", "United Arab Emirates", "UK"])


@given(home=COUNTRIES, country=COUNTRIES, region=REGION, city=REGION)
def test_outside_the_home_country_is_always_international(home, country, region, city):
    assume(not same_country(home, country))
    state = "NJ" if normalize_country(country) == USA else region
    captain = normalize_captain(
        name="A", city=city, state=state, country=country, home=home
    )
    assert place_team(captain, KERALA, home) == ("intl", Placement.INTERNATIONAL)


@given(region=REGION, upper=st.booleans(), spaced=st.booleans(), wide=st.booleans())
def test_a_region_matches_its_section_however_it_is_typed(region, upper, spaced, wide):
    typed = region.upper() if upper else region.lower()
    if spaced:
        typed = " " + "  ".join(typed) + " "
    if wide:  # fullwidth forms of ASCII letters, as some keyboards type them
        typed = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in typed)
    assume(area_key(typed) == area_key(region))  # a case mapping may change length
    sections = [
        SectionArea("intl", "International", international=True),
        SectionArea("r", "R", states=(region,)),
    ]
    assert _placed("Nowhere-in-particular", typed, "India", sections=sections) == (
        "r",
        Placement.STATE,
    )


@given(city=REGION, region=REGION)
def test_home_placement_only_picks_a_section_that_lists_city_or_region(city, region):
    try:
        key, why = _placed(city, region, "India")
    except RuleError as error:
        assert error.code == "no_section"
        return
    section = next(s for s in KERALA if s.key == key)
    if why is Placement.CITY:
        assert area_key(city) in {area_key(c) for c in section.cities}
    else:
        assert why is Placement.STATE
        assert area_key(region) in {area_key(s) for s in section.states}
