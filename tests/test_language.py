"""The pages in English and Malayalam (docs/glossary.md): the language from the
switcher's cookie, else the browser's Accept-Language, else English; the API always
English; the catalogue complete for what the templates mark, and compiled."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import polib
import pytest

from tests.factories import TournamentFactory
from tests.template_text import unmarked

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "locale" / "ml" / "LC_MESSAGES" / "django.po"
COMPILED = CATALOGUE.with_suffix(".mo")

# The API's documentation page stays English, as the API does.
ENGLISH_ONLY = {"drf_spectacular/swagger_ui.html"}
# Templates whose words are not all marked yet (issue 22 marks them page by page). The
# list only shrinks: a template on it that is now clean fails until it is taken off.
PENDING = {
    "registration/password_reset_email.html",
    "scoring/_desk.html",
    "scoring/_offline.html",
    "scoring/_screen.html",
    "scoring/desk.html",
    "scoring/draw.html",
    "scoring/excel.html",
    "scoring/link_cards.html",
    "scoring/links.html",
    "scoring/print.html",
    "scoring/screen.html",
    "tournament/backup_restore.html",
    "tournament/backups.html",
    "tournament/people.html",
    "tournament/registration.html",
    "tournament/settings.html",
}

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_tournament():
    return TournamentFactory(slug="kerala-open", published=True)


def test_english_is_the_default(client, open_tournament):
    page = client.get("/t/kerala-open/standings/")
    text = page.content.decode()
    assert '<html lang="en">' in text and ">Standings</a>" in text
    assert page["Content-Language"] == "en"


def test_the_browser_asks_for_malayalam(client, open_tournament):
    page = client.get("/t/kerala-open/standings/", HTTP_ACCEPT_LANGUAGE="ml,en;q=0.5")
    text = page.content.decode()
    assert '<html lang="ml">' in text
    assert ">പോയിന്റ് നില</a>" in text and ">കണക്കുകൾ</a>" in text
    assert page["Content-Language"] == "ml"
    assert "Accept-Language" in page["Vary"]
    # The switcher offers the other language, in its own words and lang.
    assert 'lang="en">English</button>' in text


def test_the_switcher_changes_the_language_and_remembers_it(client, open_tournament):
    page = client.get("/t/kerala-open/standings/")
    assert (
        'name="language" value="ml" lang="ml">മലയാളം</button>' in page.content.decode()
    )
    answer = client.post(
        "/i18n/setlang/", {"language": "ml", "next": "/t/kerala-open/standings/"}
    )
    assert answer.status_code == 302
    assert answer["Location"] == "/t/kerala-open/standings/"
    assert client.cookies["django_language"].value == "ml"
    # Remembered over the browser's English.
    again = client.get("/t/kerala-open/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="ml">' in again and ">ടീമുകൾ</a>" in again
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert '<html lang="en">' in client.get("/t/kerala-open/").content.decode()


def test_the_api_answers_in_english_whatever_is_asked(api, open_tournament):
    answer = api.get("/api/v1/no-such-thing/", HTTP_ACCEPT_LANGUAGE="ml")
    assert answer.status_code == 404
    assert answer.json()["detail"].startswith("There is no such address in the API")
    login = api.post(
        "/api/v1/auth/token/", {}, format="json", HTTP_ACCEPT_LANGUAGE="ml"
    )
    assert "This field is required." in str(login.json())
    assert "Content-Language" not in api.get(
        "/api/v1/tournaments/kerala-open/standings/", HTTP_ACCEPT_LANGUAGE="ml"
    )


_CALL = re.compile(r"\b(n?p?gettext)\(((?:u'(?:[^'\\]|\\.)*'(?:,\s*)?)+)")


def _marked() -> set[tuple[str | None, str]]:
    """Every string the templates mark, as Django's makemessages reads them (its
    templatize turns a template into gettext calls)."""
    from django.utils.translation.template import templatize

    found: set[tuple[str | None, str]] = set()
    for template in (ROOT / "templates").rglob("*.html"):
        code = templatize(template.read_text(encoding="utf-8"))
        for function, arguments in _CALL.findall(code):
            strings = ast.literal_eval(f"({arguments.rstrip().rstrip(',')},)")
            context = (
                strings[0] if function.startswith(("pgettext", "npgettext")) else None
            )
            found.add((context, strings[1] if context is not None else strings[0]))
    return found


def test_every_marked_string_is_translated():
    catalogue = polib.pofile(str(CATALOGUE))
    translated = {
        (e.msgctxt, e.msgid): e.msgstr or e.msgstr_plural.get(0, "")
        for e in catalogue
        if not e.obsolete
    }
    marked = _marked()
    assert marked, "no template marks its text"
    missing = sorted(k for k in marked if not translated.get(k))
    assert not missing, f"not in the Malayalam catalogue: {missing}"
    assert not [e.msgid for e in catalogue if "fuzzy" in e.flags]
    # What the Python code marks (forms, labels) is collected by `make messages`:
    # every entry of the catalogue has its Malayalam.
    untranslated = [e.msgid for e in catalogue if not e.obsolete and not e.translated()]
    assert not untranslated, f"no Malayalam for {untranslated}"


def test_the_compiled_catalogue_is_the_catalogue():
    """The .mo is committed (a fresh clone needs no gettext): it must say what the
    .po says."""

    def entries(catalogue) -> dict:
        return {
            (e.msgctxt, e.msgid): (e.msgstr, tuple(sorted(e.msgstr_plural.items())))
            for e in catalogue
            if e.msgid and not e.obsolete
        }

    compiled = entries(polib.mofile(str(COMPILED)))
    assert compiled == entries(polib.pofile(str(CATALOGUE)))


def test_a_signed_in_persons_choice_follows_them(client, open_tournament):
    from tests.factories import UserFactory
    from tournament.models import LanguagePreference

    user = UserFactory(username="lekha")
    client.force_login(user)
    client.post("/i18n/setlang/", {"language": "ml", "next": "/"})
    assert LanguagePreference.objects.get(user=user).language == "ml"
    # Another browser, which asks for English: after signing in, Malayalam.
    user.set_password("browser-56")
    user.save()
    other = type(client)()
    other.post("/accounts/login/", {"username": "lekha", "password": "browser-56"})
    page = other.get("/t/kerala-open/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="ml">' in page
    # Signed out, the browser's language again.
    other.post("/accounts/logout/")
    page = other.get("/t/kerala-open/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="en">' in page


def _templates() -> list[str]:
    root = ROOT / "templates"
    return sorted(str(t.relative_to(root)) for t in root.rglob("*.html"))


@pytest.mark.parametrize("name", _templates())
def test_a_template_marks_every_word_it_shows(name):
    if name in ENGLISH_ONLY:
        return
    found = unmarked((ROOT / "templates" / name).read_text(encoding="utf-8"))
    if name in PENDING:
        assert found, f"{name} is marked now: take it off PENDING"
    else:
        assert not found, f"{name} shows words not marked for translation: {found}"


def test_the_checker_finds_unmarked_words():
    assert unmarked("<p>Save the deal</p>") == ["Save the deal"]
    assert unmarked('<b title="the bidder">{{ name }}</b>') == ["the bidder"]
    assert unmarked('{% translate "Save" %} <b>{{ n }}</b> × 56 NT') == []
    assert unmarked("{% blocktranslate %}Deal {{ n }}{% endblocktranslate %}") == []
    assert unmarked("<script>const x = 'not words';</script>") == []
