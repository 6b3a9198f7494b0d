"""A tournament's time zone (tournament/domain/zones.py): which names are accepted,
and how a moment names its zone so that a reader cannot misread it."""

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.domain.errors import RuleError
from tournament.domain.zones import (
    check_time_zone,
    zone,
    zone_abbreviation,
    zone_names,
    zone_place,
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
