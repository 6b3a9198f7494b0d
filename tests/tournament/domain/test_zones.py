"""A tournament's time zone (tournament/domain/zones.py): which names are accepted,
and how a moment names its zone so that a reader cannot misread it."""

import sys
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.domain import zones
from tournament.domain.errors import RuleError
from tournament.domain.zones import (
    check_time_zone,
    listed_zone_names,
    zone,
    zone_abbreviation,
    zone_names,
    zone_place,
    zone_region,
    zones_of_table,
)

NAMES = sorted(zone_names())


@given(st.sampled_from(NAMES))
def test_every_name_of_the_tz_database_is_accepted_as_it_is(name):
    assert check_time_zone(name) == name
    assert check_time_zone(f"  {name} ") == name
    assert zone(name).key == name


@given(st.text(max_size=80))
def test_anything_else_is_refused_naming_the_field_and_the_rule(text):
    if text.strip() in zone_names():
        return
    with pytest.raises(RuleError) as refused:
        check_time_zone(text)
    assert refused.value.field == "time_zone"
    assert refused.value.code in {"required", "time_zone_unknown"}
    assert "America/New_York" in refused.value.message


@pytest.mark.parametrize(
    "name", ["", "   ", "localtime", "posixrules", "Factory", "America/Nowhere", "../x"]
)
def test_not_a_place_is_refused(name):
    with pytest.raises(RuleError) as refused:
        check_time_zone(name)
    assert refused.value.field == "time_zone"


@given(
    st.sampled_from(NAMES),
    st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2060, 1, 1)).map(
        lambda d: d.replace(tzinfo=UTC)
    ),
)
def test_a_moment_names_its_zone_in_letters_or_as_an_offset_from_utc(name, moment):
    said = zone_abbreviation(moment.astimezone(zone(name)))
    assert said
    assert said[0] not in "+-"  # never a bare "+04"
    if said.startswith("UTC") and said != "UTC":
        sign, rest = said[3], said[4:]
        assert sign in "+-" and rest[:2].isdigit()


@pytest.mark.parametrize(
    ("name", "said", "place"),
    [
        ("America/New_York", "EST", "New York"),
        ("Asia/Kolkata", "IST", "Kolkata"),
        ("Asia/Dubai", "UTC+04", "Dubai"),
        ("Asia/Kathmandu", "UTC+05:45", "Kathmandu"),
        ("UTC", "UTC", "UTC"),
    ],
)
def test_the_zones_of_new_jersey_india_and_dubai(name, said, place):
    winter = datetime(2026, 11, 26, 16, 37, tzinfo=UTC)
    assert zone_abbreviation(winter.astimezone(zone(name))) == said
    assert zone_place(name) == place


def test_new_york_in_summer_is_edt():
    summer = datetime(2026, 7, 1, 16, 37, tzinfo=UTC)
    assert zone_abbreviation(summer.astimezone(zone("America/New_York"))) == "EDT"


# The list a person chooses from (issue 41, words 1): canonical zones only, each once,
# its sub-zones named in full; every other name of the tz database stays accepted.

LISTED = listed_zone_names()


def test_the_list_holds_canonical_zones_only_each_place_once():
    assert "UTC" in LISTED and "Asia/Kolkata" in LISTED
    for alias in (
        "Asia/Calcutta",
        "Asia/Saigon",
        "Africa/Asmera",
        "America/Buenos_Aires",
    ):
        assert alias not in LISTED
    for alias in ("America/Indianapolis", "America/Louisville", "Asia/Istanbul"):
        assert alias not in LISTED
    assert "Europe/Nicosia" not in LISTED and "Asia/Nicosia" in LISTED
    places = [(zone_region(n), zone_place(n)) for n in LISTED]
    assert len(places) == len(set(places))  # no two entries read alike
    assert set(LISTED) <= zone_names()


@given(st.sampled_from(sorted(zone_names() - set(LISTED))))
def test_a_name_left_out_of_the_list_is_still_accepted(name):
    assert check_time_zone(name) == name


@given(st.sampled_from(LISTED))
def test_a_listed_place_is_named_in_full(name):
    place = zone_place(name)
    assert place and "_" not in place and "/" not in place
    if name.count("/") == 2:
        _region, middle, last = name.split("/")
        assert place == f"{middle.replace('_', ' ')} – {last.replace('_', ' ')}"


@pytest.mark.parametrize(
    ("name", "place"),
    [
        ("America/North_Dakota/Center", "North Dakota – Center"),
        ("America/Indiana/Knox", "Indiana – Knox"),
        ("America/Argentina/Buenos_Aires", "Argentina – Buenos Aires"),
        ("America/Kentucky/Louisville", "Kentucky – Louisville"),
    ],
)
def test_a_sub_zone_names_its_state_or_country(name, place):
    assert name in LISTED
    assert zone_place(name) == place
    assert zone_region(name) == "America"


TABLE = """# tzdb timezone descriptions
#
AD\t+4230+00131\tEurope/Andorra
US\t+404251-0740023\tAmerica/New_York\tEastern (most areas)
US\t+471551-1014640\tAmerica/North_Dakota/Center\tCentral - ND (Oliver)
"""


def test_the_table_gives_its_third_column():
    assert zones_of_table(TABLE) == [
        "Europe/Andorra",
        "America/New_York",
        "America/North_Dakota/Center",
    ]


def test_without_the_systems_database_the_tzdata_wheels_table_is_read(
    monkeypatch, tmp_path
):
    # A slim container: no /usr/share/zoneinfo, only the tzdata wheel.
    wheel = tmp_path / "tzdata" / "zoneinfo"
    wheel.mkdir(parents=True)
    (tmp_path / "tzdata" / "__init__.py").write_text("")
    (wheel / "__init__.py").write_text("")
    (wheel / "zone.tab").write_text(TABLE)
    monkeypatch.setattr(zones.zoneinfo, "TZPATH", (str(tmp_path / "nothing"),))
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("tzdata", "tzdata.zoneinfo"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    listed_zone_names.cache_clear()
    try:
        assert listed_zone_names() == (
            "America/New_York",
            "America/North_Dakota/Center",
            "Europe/Andorra",
            "UTC",
        )
    finally:
        listed_zone_names.cache_clear()


def test_without_any_table_the_list_still_offers_the_world(monkeypatch):
    monkeypatch.setattr(zones.zoneinfo, "TZPATH", ())
    monkeypatch.setattr(zones, "_table_texts", lambda: iter(()))
    listed_zone_names.cache_clear()
    try:
        names = listed_zone_names()
        assert "America/New_York" in names and "UTC" in names
        assert "US/Eastern" not in names
    finally:
        listed_zone_names.cache_clear()


# A zone by its country (issue 52): the create page's default and the list's labels
# ----------------------------------------------------------------------------------


def test_a_zone_tables_line_gives_its_country():
    zone_text = "# comment\nIN\t+2232+08822\tAsia/Kolkata\nXX\t+0\tNowhere/Else\n"
    country_text = "# code\tname\nIN\tIndia\nAE\tUnited Arab Emirates\n"
    assert zones.countries_of_table(zone_text, country_text) == {
        "Asia/Kolkata": "India"
    }


@pytest.mark.parametrize(
    ("country", "found"),
    [
        ("India", "Asia/Kolkata"),
        ("  bharat ", "Asia/Kolkata"),
        ("UAE", "Asia/Dubai"),
        ("United Arab Emirates", "Asia/Dubai"),
        ("USA", None),  # several zones: the site's decides
        ("United States", None),
        ("Atlantis", None),
        ("", None),
    ],
)
def test_a_country_of_one_zone_gives_it(country, found):
    assert zones.home_zone(country) == found


@given(st.sampled_from(sorted(zones.zone_countries())))
def test_every_listed_zone_is_labelled_by_place_country_and_short_name(name):
    moment = datetime(2026, 1, 15, 12, tzinfo=UTC)
    label = zones.zone_choice_label(name, moment)
    parts = label.split(" · ")
    assert parts[0] == zone_place(name)
    assert zones.zone_countries()[name] in parts
    assert parts[-1] == zone_abbreviation(moment.astimezone(zone(name)))
    assert len(parts) == len(set(parts))


def test_kolkata_is_found_by_india_and_ist():
    label = zones.zone_choice_label("Asia/Kolkata", datetime(2026, 7, 1, tzinfo=UTC))
    assert label == "Kolkata · India · IST"
