"""A tournament's time zone on its pages (issue 41, point 15): the create page
offers the site's zone, chosen by default; the settings page changes it until the
league draw, then shows it fixed; a name that is no zone is refused on its field."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from tests.factories import UserFactory
from tournament.models import Tournament

pytestmark = pytest.mark.django_db
NEW = "/tournaments/new/"


def _body(**kw):
    return {
        "name": "Edison Open",
        "ruleset": "international",
        "players_per_team": 3,
        "league_rounds": 8,
        "league_deals": 18,
        "qualifiers": 24,
        "substitutions_allowed": 1,
    } | kw


def _selected(page: str) -> list[str]:
    select = re.search(r'<select name="time_zone".*?</select>', page, re.S).group(0)
    return re.findall(r'<option value="([^"]+)"[^>]*selected', select)


@pytest.fixture
def creator():
    user = UserFactory(username="zone-creator")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    ("language", "label", "region", "default"),
    [
        (
            "en",
            "Time zone",
            "America",
            "The home country&#x27;s (else the site&#x27;s)",
        ),
        ("ml", "സമയമേഖല", "അമേരിക്ക", "ആതിഥേയ രാജ്യത്തിന്റേത് (അല്ലെങ്കിൽ സൈറ്റിന്റേത്)"),
    ],
)
def test_the_create_page_takes_the_home_countrys_zone_by_default(
    creator, settings, language, label, region, default
):
    """Issue 52: a Kerala championship was created in UTC unless its organizer found
    Kolkata in the list. Left as offered, the zone is the home country's where the
    country has one zone, else the site's."""
    settings.TIME_ZONE = "Europe/London"
    page = creator.get(NEW, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<label for="id_time_zone">{label}</label>' in page
    assert f'<option value="" selected>{default}</option>' in page
    assert f'<optgroup label="{region}">' in page
    assert '<option value="America/New_York" lang="en">New York · USA · E' in page
    creator.post(NEW, _body(slug="kochi", home_country="India"))
    assert Tournament.objects.get(slug="kochi").time_zone == "Asia/Kolkata"
    creator.post(NEW, _body(slug="dubai", home_country="UAE"))
    assert Tournament.objects.get(slug="dubai").time_zone == "Asia/Dubai"
    creator.post(NEW, _body(slug="many-zones", home_country="USA"))
    assert Tournament.objects.get(slug="many-zones").time_zone == "Europe/London"
    creator.post(
        NEW, _body(slug="edison", home_country="India", time_zone="America/New_York")
    )
    assert Tournament.objects.get(slug="edison").time_zone == "America/New_York"


@pytest.mark.parametrize("language", ["en", "ml"])
def test_a_name_that_is_no_zone_is_refused_on_its_field(creator, language):
    answer = creator.post(
        NEW, _body(slug="mars", time_zone="Mars/Olympus"), HTTP_ACCEPT_LANGUAGE=language
    )
    assert answer.status_code == 400
    page = answer.content.decode()
    field = re.search(r'<div class="field invalid">.*?</div>', page, re.S).group(0)
    assert 'name="time_zone"' in field and "Mars/Olympus" in field
    assert not Tournament.objects.filter(slug="mars").exists()


def test_the_settings_page_changes_the_zone_until_the_draw(organizer, tournament):
    client = Client()
    client.force_login(organizer)
    url = f"/t/{tournament.slug}/settings/"
    answer = client.post(
        url,
        _body(name=tournament.name, time_zone="America/New_York"),
        follow=True,
    )
    assert "The settings are saved." in answer.content.decode()
    tournament.refresh_from_db()
    assert tournament.time_zone == "America/New_York"
    assert _selected(client.get(url).content.decode()) == ["America/New_York"]

    Tournament.objects.filter(pk=tournament.pk).update(status="league")
    page = client.get(url).content.decode()
    select = re.search(r'<select name="time_zone"[^>]*>', page).group(0)
    assert "disabled" in select
    field = re.search(
        r'<div class="field">\s*<label for="id_time_zone">.*?</div>', page, re.S
    )
    assert "Fixed: the league is drawn" in field.group(0)
    # Posted anyway, it is ignored; the open settings still save.
    client.post(url, _body(name="Edison Open 2", time_zone="Asia/Kolkata"))
    tournament.refresh_from_db()
    assert (tournament.name, tournament.time_zone) == (
        "Edison Open 2",
        "America/New_York",
    )


# The list as a person reads it (issue 41, words 1): each place once, canonical zones
# only, sub-zones named in full; an old alias is still taken; the overview names the
# zone as a place, not as its code.


@pytest.mark.parametrize(("language", "region"), [("en", "America"), ("ml", "അമേരിക്ക")])
def test_the_list_names_each_place_once_and_in_full(creator, language, region):
    page = creator.get(NEW, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    select = re.search(r'<select name="time_zone".*?</select>', page, re.S).group(0)
    groups = re.findall(r'<optgroup label="([^"]+)">(.*?)</optgroup>', select, re.S)
    assert region in [label for label, _options in groups]
    for _label, options in groups:
        labels = re.findall(r"<option [^>]*>([^<]+)</option>", options)
        assert len(labels) == len(set(labels)), labels
    for alias in (
        "Asia/Calcutta",
        "Asia/Saigon",
        "Africa/Asmera",
        "America/Buenos_Aires",
    ):
        assert f'value="{alias}"' not in select
    for bare in ("Center", "Knox", "North", "South", "West"):
        assert f">{bare}</option>" not in select
    # Each by its place, its country and its short name (issue 52: "India" and
    # "IST" found nothing); a short name changes with summer time.
    for name, label in (
        ("America/North_Dakota/Center", "North Dakota – Center · USA · C"),
        ("America/Indiana/Knox", "Indiana – Knox · USA · C"),
        ("America/Argentina/Buenos_Aires", "Argentina – Buenos Aires · Argentina · "),
        ("Asia/Kolkata", "Kolkata · India · IST</option>"),
        ("Asia/Dubai", "Dubai · United Arab Emirates · UTC+04</option>"),
    ):
        assert f'<option value="{name}" lang="en">{label}' in select


def test_an_old_alias_is_still_a_zone(creator):
    creator.post(NEW, _body(slug="calcutta", time_zone="Asia/Calcutta"))
    assert Tournament.objects.get(slug="calcutta").time_zone == "Asia/Calcutta"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "New York (America), "),
        ("ml", "New York (അമേരിക്ക), "),
    ],
)
def test_the_overview_names_the_zone_as_a_place(tournament, language, said):
    Tournament.objects.filter(pk=tournament.pk).update(
        time_zone="America/New_York", published=True
    )
    page = (
        Client()
        .get(f"/t/{tournament.slug}/", HTTP_ACCEPT_LANGUAGE=language)
        .content.decode()
    )
    assert "America/New_York:" not in page
    assert re.search(
        re.escape(said) + r"(അവിടെ ഇപ്പോൾ )?<time[^>]*>\d\d:\d\d E[SD]T</time>",
        page,
    )


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Left empty, its address is /t/kerala-champyanshipp-2026/ for good."),
        ("ml", "/t/kerala-champyanshipp-2026/"),
    ],
)
def test_a_malayalam_name_gives_an_address_shown_before_it_is_made(
    creator, language, said
):
    """Issue 52: "കേരള ചാമ്പ്യൻഷിപ്പ് 2026" became /t/56-2026/ for good, unseen. The
    create page shows the address as the name is typed (htmx asks ?name=), read in
    Latin letters, and the tournament gets exactly that address."""
    name = "കേരള ചാമ്പ്യൻഷിപ്പ് 2026"
    page = creator.get(NEW, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    field = re.search(r'<input type="text" name="name"[^>]*>', page).group(0)
    assert 'hx-get="/tournaments/new/"' in field
    assert 'hx-select="#address-preview"' in field
    assert '<p id="address-preview" class="muted" aria-live="polite"></p>' in page
    preview = creator.get(
        NEW, {"name": name}, HTTP_ACCEPT_LANGUAGE=language, HTTP_HX_REQUEST="true"
    ).content.decode()
    shown = preview.split('id="address-preview"', 1)[1].split("</p>", 1)[0]
    assert said in shown
    creator.post(NEW, _body(name=name, home_country="India"))
    assert Tournament.objects.get(name=name).slug == "kerala-champyanshipp-2026"
    # A second of the same name is numbered, and the preview says so first.
    again = creator.get(NEW, {"name": name}, HTTP_ACCEPT_LANGUAGE=language)
    assert "/t/kerala-champyanshipp-2026-2/" in again.content.decode()
