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


_SINGULAR = {"_", "gettext", "gettext_lazy", "gettext_noop", "marked"}
_CONTEXT = {"pgettext", "pgettext_lazy"}
_PLURAL = {"ngettext", "ngettext_lazy", "marked_plural"}


def _marked_in_python() -> set[tuple[str | None, str]]:
    """Every string the Python code marks (forms, models' labels, page messages, the
    offline queue's sentences): literal arguments of the gettext functions."""
    found: set[tuple[str | None, str]] = set()
    for package in ("tournament", "scoring", "brackets"):
        for source in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                texts = [
                    a.value
                    for a in node.args
                    if isinstance(a, ast.Constant) and isinstance(a.value, str)
                ]
                if name in _SINGULAR | _PLURAL and texts:
                    found.add((None, texts[0]))
                elif name in _CONTEXT and len(texts) == 2:
                    found.add((texts[0], texts[1]))
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
    in_python = _marked_in_python()
    assert {("stage", "League"), (None, "Online")} <= in_python
    marked |= in_python
    missing = sorted(k for k in marked if not translated.get(k))
    assert not missing, f"not in the Malayalam catalogue: {missing}"
    assert not [e.msgid for e in catalogue if "fuzzy" in e.flags]
    # Every entry of the catalogue has its Malayalam (`make messages` collects it).
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
    """Every template a person reads: the pages and the e-mails (.txt)."""
    root = ROOT / "templates"
    return sorted(
        str(t.relative_to(root))
        for pattern in ("*.html", "*.txt")
        for t in root.rglob(pattern)
        if str(t.relative_to(root)) not in ENGLISH_ONLY
    )


@pytest.mark.parametrize("name", _templates())
def test_a_template_marks_every_word_it_shows(name):
    found = unmarked((ROOT / "templates" / name).read_text(encoding="utf-8"))
    assert not found, f"{name} shows words not marked for translation: {found}"


def test_the_checker_finds_unmarked_words():
    assert unmarked("<p>Save the deal</p>") == ["Save the deal"]
    assert unmarked('<b title="the bidder">{{ name }}</b>') == ["the bidder"]
    assert unmarked('{% translate "Save" %} <b>{{ n }}</b> × 56 NT') == []
    assert unmarked("{% blocktranslate %}Deal {{ n }}{% endblocktranslate %}") == []
    assert unmarked("<script>const x = 'not words';</script>") == []
    assert unmarked("{% translate 'Run' %} <code>manage.py draw_check</code>") == []
    assert unmarked("<p>Run <code>manage.py</code> now</p>") == ["Run", "now"]


def test_the_offline_queue_says_what_the_page_hands_it():
    """Each sentence the offline queue's scripts (static/js/score/) say (their
    t("...") calls) is one the page hands over translated, and the page hands over no
    sentence the scripts lost."""
    from scoring.words import OFFLINE_WORDS

    scripts = sorted((ROOT / "static" / "js" / "score").glob("*.js"))
    assert len(scripts) >= 5
    script = "\n".join(s.read_text(encoding="utf-8") for s in scripts)
    said = set(re.findall(r'\bt\("((?:[^"\\]|\\.)*)"', script))
    assert said == set(OFFLINE_WORDS)


def test_the_offline_queue_speaks_malayalam_on_a_malayalam_page():
    from django.utils import translation

    from scoring.words import offline_words

    with translation.override("ml"):
        words = offline_words()
    assert words["Online"] != "Online"
    assert "{number}" in words["Replace deal {number} with mine"]
    with translation.override("en"):
        assert offline_words()["Online"] == "Online"


_HOLE = re.compile(r"%\((\w+)\)[sdr]|\{(\w+)\}")


def _holes(text: str) -> set[str]:
    return {a or b for a, b in _HOLE.findall(text)}


def test_every_translation_keeps_the_placeholders_of_its_english():
    """A Malayalam sentence names the same values as its English (a missing one would
    fail on the page, an extra one too)."""
    wrong = []
    for entry in polib.pofile(str(CATALOGUE)):
        if entry.obsolete:
            continue
        english = _holes(entry.msgid) | _holes(entry.msgid_plural or "")
        said = [entry.msgstr] if entry.msgstr else list(entry.msgstr_plural.values())
        # A singular may leave out the count its plural names ("1 team").
        if any(
            _holes(s) - english or (not entry.msgid_plural and _holes(s) != english)
            for s in said
        ):
            wrong.append(entry.msgid)
    assert not wrong, f"placeholders differ from the English: {wrong}"


_REFUSING = {"RuleError", "ConflictError", "ForbiddenError", "DrawError"}
_REFUSING_AT = {"BackupRefused": 0, "XlsxRefused": 1, "FileProblem": 3}


def _unmarked_refusals() -> list[str]:
    """Each refusal the pages can show whose words are not marked: its message is a
    literal or an f-string instead of marked(...), filled(...) or gettext(...).
    The API's own modules (apis*.py) speak only English and are left out."""
    found = []
    for package in ("tournament", "scoring", "brackets"):
        for source in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in source.parts or source.name.startswith("apis"):
                continue
            for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                at = 1 if name in _REFUSING else _REFUSING_AT.get(name)
                if at is None or len(node.args) <= at:
                    continue
                words = node.args[at]
                if isinstance(words, ast.IfExp):
                    branches = [words.body, words.orelse]
                else:
                    branches = [words]
                if any(
                    isinstance(b, ast.Call)
                    or (isinstance(b, ast.BinOp) and isinstance(b.left, ast.Call))
                    for b in branches
                ):
                    continue  # marked words (or a marked one and a pass-through)
                if isinstance(words, ast.Constant | ast.JoinedStr | ast.BinOp):
                    found.append(f"{source.relative_to(ROOT)}:{node.lineno}")
    return found


def test_every_refusal_a_page_shows_has_marked_words():
    assert not _unmarked_refusals(), _unmarked_refusals()


def test_a_refusal_is_said_in_the_pages_language_and_the_api_as_asked(
    client, api, tournament, organizer
):
    """A page says a refusal in its language; the API in English, unless the
    request's Accept-Language puts Malayalam first (a score page's queue does):
    then its sentence is Malayalam and its code the same (docs/api.md, Errors)."""
    from tests.scoring.apis.test_draw import DRAW, make_field

    make_field(tournament, (5,))  # one section: nobody could play anybody
    client.force_login(organizer)
    client.post("/i18n/setlang/", {"language": "ml", "next": "/"})
    page = client.post(
        f"/t/{tournament.slug}/draw/", {"action": "draw"}, follow=True
    ).content.decode()
    assert "എല്ലാ 5 ടീമുകളും സെക്ഷൻ S0-ൽ ആണ്" in page
    assert "all 5 teams are in section" not in page
    api.force_authenticate(organizer)
    answer = api.post(
        DRAW.format(tournament.slug), {}, format="json", HTTP_ACCEPT_LANGUAGE="ml"
    )
    assert answer.json()["code"] == "one_section"
    assert answer.json()["detail"].startswith("എല്ലാ 5 ടീമുകളും സെക്ഷൻ S0-ൽ ആണ്")
    for english in ("", "en", "en-US,en;q=0.9,ml;q=0.8"):
        headers = {"HTTP_ACCEPT_LANGUAGE": english} if english else {}
        answer = api.post(DRAW.format(tournament.slug), {}, format="json", **headers)
        assert answer.json()["code"] == "one_section"
        assert answer.json()["detail"].startswith("all 5 teams are in section S0;")


def test_a_refusal_says_its_phrases_in_the_pages_language_too():
    """Words inside words: the crowded sections' refusal names the sections and
    what they would need as phrases of their own, each translated."""
    from django.utils import translation

    from scoring.domain.draw import DrawTeam, draw_problems
    from tournament.words import refusal

    teams = [
        DrawTeam(n, "S0" if n < 6 else "S1" if n < 12 else "S2") for n in range(13)
    ]
    problem = draw_problems(teams, 8)[0]
    assert problem.code == "sections_too_large"
    assert "sections S0 and S1 hold 12 of the 13 teams" in problem.message
    assert "against the other 1 team and the bye" in problem.message
    with translation.override("ml"):
        said = refusal(problem)
    assert "13 ടീമുകളിൽ 12 എണ്ണം S0, S1 സെക്ഷനുകളിലാണ്" in said
    assert "മറ്റ് 1 ടീം-നും ബൈയ്ക്കുമെതിരെ കുറഞ്ഞത് 24 മത്സരങ്ങൾ വേണം" in said
    with translation.override("en"):
        assert refusal(problem) == problem.message


def test_a_refusal_says_a_sheets_status_and_stage_in_the_pages_language(client):
    """A refusal that quotes a match's status and stage ("… of league round 1 is
    confirmed already") says them in words on an English page, in Malayalam on a
    Malayalam one; the API's message keeps the codes."""
    from tests.brackets.knockout import final_league

    tournament, organizer = final_league(2, 3, qualifiers=2, slug="said-cup")
    team = tournament.teams.order_by("pk").first()
    second = team.players.order_by("position").values_list("name", flat=True)[1]
    body = {
        "action": "substitute",
        "substitute-out": second,
        "substitute-into": "Someone New",
        "substitute-from_round": "1",
        "substitute-stage": "league",
        "substitute-reason": "ill",
    }
    client.force_login(organizer)

    def refused() -> str:
        page = client.post(f"/t/said-cup/teams/{team.pk}/", body, follow=True)
        found = re.findall(r'<li class="error">(.*?)</li>', page.content.decode())
        assert found, page.content.decode()[:2000]
        return found[0]

    assert "sheet of league round 1 is confirmed already" in refused()
    client.post("/i18n/setlang/", {"language": "ml", "next": "/"})
    said = refused()
    assert "confirmed" not in said and "league" not in said
    assert "ഉറപ്പിച്ചു" in said and "ലീഗ്" in said
