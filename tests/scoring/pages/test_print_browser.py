"""Every printable page on paper: Debian's chromium prints each to PDF on A4 (the
page's own `@page` size wins, as in the print dialog) and the test counts the pages.
A match's paper sheet fills one page, a knockout semi-final's 24 deals too, in
English and in Malayalam; a round's sheets take one page per table; pairings print
without buttons; the bracket prints landscape; link cards keep their QR codes the
same size in the same place whatever the name. Each PDF is also rendered to PNG in
artifacts/print/ (not committed) when poppler's pdftoppm is installed, to look at."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from brackets.models import Game
from brackets.services import knockout_seed
from scoring.models import Deal
from scoring.sheets import services as sheets_services
from tests.brackets.knockout import final_league
from tests.browser import DESK, log_in
from tests.scoring.league import play_quickly, tables_in_play

pytestmark = pytest.mark.django_db(transaction=True)

PRINTS = Path(__file__).resolve().parents[3] / "artifacts" / "print"
# Long names, as registered in Kerala: the heading, the cards and the pairings must
# wrap them, not grow.
LONG_NAME = "Thiruvananthapuram Kottarakkara Pathanamthitta Fifty-Six Players' Club"
LONGEST_WORD = "Kanyakumarithiruvananthapuramkollamkottarakkara Sixers"
MALAYALAM_NAME = "തിരുവനന്തപുരം കൊട്ടാരക്കര പത്തനംതിട്ട അമ്പത്തിയാറ് കളിക്കാരുടെ ക്ലബ്"


def _pdf(page, name: str) -> bytes:
    """The page printed as the print dialog would (A4 unless its CSS says more),
    kept in artifacts/print/ with a PNG of each page."""
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    PRINTS.mkdir(parents=True, exist_ok=True)
    path = PRINTS / f"{name}.pdf"
    path.write_bytes(pdf)
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm:
        for old in PRINTS.glob(f"{name}-*.png"):
            old.unlink()
        args = ["-png", "-r", "80", str(path), str(PRINTS / name)]
        subprocess.run([pdftoppm, *args], check=True)
    return pdf


def _pages(pdf: bytes) -> int:
    """How many pages: the page objects (`/Type /Page`, not the `/Pages` tree)."""
    return len(re.findall(rb"/Type\s*/Page\b", pdf))


def _media_boxes(pdf: bytes) -> list[tuple[float, float]]:
    """Each page's (width, height) in points."""
    number = rb"\s*(-?[\d.]+)"
    boxes = re.findall(rb"/MediaBox\s*\[" + number * 4 + rb"\s*\]", pdf)
    return [(float(x1) - float(x0), float(y1) - float(y0)) for x0, y0, x1, y1 in boxes]


def _a4_portrait(pdf: bytes) -> bool:
    return all(abs(w - 595) < 2 and abs(h - 842) < 2 for w, h in _media_boxes(pdf))


def _played(tournament, organizer, matches) -> None:
    """Table 1 played to its 18th deal with penalties of each kind a scorer writes;
    table 2 half played; the rest blank, as on the morning of the round."""
    first, second = matches[0], matches[1]
    play_quickly(first.pk, organizer, 30, 24, deals=18)
    play_quickly(second.pk, organizer, 12, 9, deals=9)
    for deal, kind, points, note in (
        (2, "out_of_turn", None, ""),
        (5, "out_of_turn", None, "second warning"),
        (9, "conduct", 2, "argued with the scorer about the trump"),
        (14, "kallakali", None, ""),
    ):
        sheets_services.score_sheet_penalty_record(
            match_id=first.pk,
            user=organizer,
            version=None,
            deal=deal,
            offender="B",
            kind=kind,
            points=points,
            note=note,
            by_organizer=True,
        )


def _league(slug: str, tables: int):
    tournament, organizer, teams, matches = tables_in_play(
        slug, tables=tables, deals=18, name=f"{LONG_NAME} Open 2025"
    )
    teams[0].name, teams[1].name = LONG_NAME, MALAYALAM_NAME
    teams[2].name = LONGEST_WORD
    for team in teams[:3]:
        team.save(update_fields=["name"])
    return tournament, organizer, teams, matches


def test_a_match_sheet_prints_on_one_page_in_english_and_malayalam(
    browser, live_server
):
    tournament, organizer, _, matches = _league("print-cup", tables=2)
    _played(tournament, organizer, matches)
    # A bidder with a long name, as Kerala's are written.
    Deal.objects.filter(match=matches[0], number=1).update(
        bidder="Thiruvananthapuram Padmanabhan Pillai"
    )
    page = log_in(browser, live_server, organizer, viewport=DESK)
    url = f"{live_server.url}/matches/{matches[0].pk}/print/"
    page.goto(url)
    assert page.locator(".paper-deals tbody tr").count() == 18
    # A thick line after every sixth deal and each of the last six (000 §5.3).
    marked = page.locator(".paper-deals tr.checkpoint th").all_inner_texts()
    assert marked == ["6", "12", "13", "14", "15", "16", "17", "18"]
    assert page.locator(".paper-penalties tbody tr").count() == 8
    # On the screen too, every column is inside the sheet's box: Total B was cut at
    # a desk once the bidder had a column of its own.
    inside = page.evaluate(
        """() => {
            const sheet = document.querySelector(".paper-sheet");
            const box = sheet.getBoundingClientRect();
            const cells = document.querySelectorAll(".paper-deals th, .paper-deals td");
            const right = (c) => c.getBoundingClientRect().right;
            return [...cells].every((c) => right(c) <= box.right + 1);
        }"""
    )
    assert inside
    pdf = _pdf(page, "match-18-deals-en")
    assert (_pages(pdf), _a4_portrait(pdf)) == (1, True)

    page.context.add_cookies(
        [{"name": "django_language", "value": "ml", "url": live_server.url}]
    )
    page.goto(url)
    page.wait_for_selector("html[lang=ml]")
    pdf = _pdf(page, "match-18-deals-ml")
    assert (_pages(pdf), _a4_portrait(pdf)) == (1, True)


def test_the_match_page_prints_its_total_row_once(browser, live_server):
    """Printed from the match page, a sheet's Total row is its last row, not a
    footer the browser repeats at the foot of every page, mid-match."""
    tournament, organizer, _, matches = _league("total-cup", tables=2)
    _played(tournament, organizer, matches)
    page = log_in(browser, live_server, organizer, viewport=DESK)
    page.goto(f"{live_server.url}/matches/{matches[0].pk}/")
    footer = "getComputedStyle(document.querySelector('table.sheet tfoot')).display"
    assert page.evaluate(footer) == "table-footer-group"  # on the screen
    page.emulate_media(media="print")
    assert page.evaluate(footer) == "table-row-group"


def test_a_round_prints_one_page_per_table(browser, live_server):
    tournament, organizer, _, matches = _league("round-cup", tables=24)
    _played(tournament, organizer, matches)
    page = log_in(browser, live_server, organizer, viewport=DESK)
    page.goto(f"{live_server.url}/t/round-cup/print/?round=1")
    assert page.locator("article.paper-sheet").count() == 24
    pdf = _pdf(page, "round-24-tables")
    assert (_pages(pdf), _a4_portrait(pdf)) == (24, True)


@pytest.fixture
def knockout():
    """A league of 8 teams, final, and its knockout of 4 seeded: two semi-finals of
    24 deals (and 3 tie-break rows), the first one played, between teams of long
    names (one in Malayalam) in a tournament of a long name."""
    tournament, organizer = final_league(2, 4, qualifiers=4, slug="print-ko")
    knockout_seed(tournament=tournament, user=organizer)
    semi = (
        Game.objects.filter(knockout_match__bracket__tournament=tournament)
        .order_by("pk")
        .first()
        .sheet
    )
    play_quickly(semi.pk, organizer, 31, 22, deals=24)
    tournament.name = f"{LONG_NAME} Open 2025"
    tournament.save(update_fields=["name"])
    semi.team_a.name, semi.team_b.name = LONG_NAME, MALAYALAM_NAME
    for team in (semi.team_a, semi.team_b):
        team.save(update_fields=["name"])
    return tournament, organizer, semi


def test_a_semi_final_of_24_deals_prints_on_one_page(browser, live_server, knockout):
    _, organizer, semi = knockout
    page = log_in(browser, live_server, organizer, viewport=DESK)
    page.goto(f"{live_server.url}/matches/{semi.pk}/print/")
    assert page.locator(".paper-deals tbody tr").count() == 27
    marked = page.locator(".paper-deals tr.checkpoint th").all_inner_texts()
    assert [m.rstrip("*") for m in marked] == [
        str(n) for n in (6, 12, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27)
    ]
    pdf = _pdf(page, "semi-final-24-deals-en")
    assert (_pages(pdf), _a4_portrait(pdf)) == (1, True)

    page.context.add_cookies(
        [{"name": "django_language", "value": "ml", "url": live_server.url}]
    )
    page.reload()
    page.wait_for_selector("html[lang=ml]")
    pdf = _pdf(page, "semi-final-24-deals-ml")
    assert (_pages(pdf), _a4_portrait(pdf)) == (1, True)


def test_the_bracket_prints_landscape_in_readable_type(browser, live_server):
    """24 qualifiers in a bracket of 32, the size most tournaments seed: six rounds
    side by side on A4 landscape (one page today; long names may carry the first
    round over to a second)."""
    tournament, organizer = final_league(2, 13, qualifiers=24, slug="print-bracket")
    knockout_seed(tournament=tournament, user=organizer)
    page = log_in(browser, live_server, organizer, viewport=DESK)
    page.goto(f"{live_server.url}/t/print-bracket/bracket/")
    assert page.locator(".ko-round").count() == 6
    pdf = _pdf(page, "bracket-24")
    boxes = _media_boxes(pdf)
    assert 1 <= len(boxes) == _pages(pdf) <= 2
    assert all(w > h and abs(w - 842) < 2 for w, h in boxes), boxes
    page.emulate_media(media="print")
    sizes = page.locator(".ko-side .name").evaluate_all(
        "all => all.map((e) => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert min(sizes) >= 12, sizes  # CSS pixels: 9 points, not the 8 it was


# A4's width and height inside 12 mm margins, in CSS pixels (96 to the inch).
A4_INSIDE = {"width": 703, "height": 1032}

# What a printed page never shows: controls, and the site's navigation.
CONTROLS = "header.site, nav, .tabs, button, form, a.button, .toolbar, .no-print"


def test_pairings_print_without_buttons_or_navigation(browser, live_server, knockout):
    _, organizer, _ = knockout
    page = log_in(browser, live_server, organizer, viewport=DESK)
    page.goto(f"{live_server.url}/t/print-ko/matches/?round=league-2")
    assert page.locator(".rounds-pick a").count() > 1
    assert page.locator("form button").count() > 0  # the organizer's "Set up"
    page.emulate_media(media="print")
    shown = page.locator(CONTROLS).evaluate_all(
        """all => all.filter((e) => e.getClientRects().length > 0)
                    .map((e) => e.outerHTML.slice(0, 80))"""
    )
    assert shown == []
    assert page.get_by_role("heading", name="Set up a match by hand").is_hidden()
    assert page.locator("table.matches").is_visible()
    pdf = _pdf(page, "pairings")
    assert (_pages(pdf), _a4_portrait(pdf)) == (1, True)


def _boxes(page) -> list[dict]:
    """Each card's box, and its QR code's box inside it."""
    return page.locator("article.card").evaluate_all(
        """cards => cards.map((card) => {
            const c = card.getBoundingClientRect();
            const q = card.querySelector(".qr svg").getBoundingClientRect();
            return {card: [c.left, c.top, c.width, c.height],
                    qr: [q.left - c.left, q.top - c.top, q.width, q.height],
                    name: card.querySelector("h2").textContent};
        })"""
    )


@pytest.mark.parametrize("kind", ["team", "table"])
def test_link_cards_keep_their_qr_codes_in_line(browser, live_server, kind):
    _, organizer, _, _ = _league("cards-cup", tables=4)
    page = log_in(browser, live_server, organizer, viewport=DESK)
    page.goto(f"{live_server.url}/t/cards-cup/links/cards/?kind={kind}")
    page.set_viewport_size(A4_INSIDE)
    page.emulate_media(media="print")
    boxes = _boxes(page)
    assert len(boxes) == (8 if kind == "team" else 4)
    if kind == "team":
        assert {b["name"] for b in boxes} >= {LONG_NAME, LONGEST_WORD}
    qr = {tuple(round(v) for v in b["qr"]) for b in boxes}
    assert len(qr) == 1, boxes
    (_, _, width, height) = qr.pop()
    assert width == height >= 170  # 45 mm: scans from across a table
    # A grid: two columns of cards of one width, each row's two cards level and as
    # tall as each other, none pushed wider by its name.
    assert len({round(b["card"][0]) for b in boxes}) == 2, boxes
    assert len({round(b["card"][2]) for b in boxes}) == 1, boxes
    rows = [(round(b["card"][1]), round(b["card"][3])) for b in boxes]
    assert rows[0::2] == rows[1::2], rows
    pdf = _pdf(page, f"{kind}-cards")
    assert (_pages(pdf), _a4_portrait(pdf)) == (len(boxes) // 4, True)  # 2 x 2 a page
