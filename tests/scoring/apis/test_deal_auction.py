"""The auction of a deal on the sheet (docs/auction.md): optional, checked against the
deal's contract by scoring/domain/auction.py, stored as the notation writes it; in the
API, the history, the score page, the paper sheet and its import, and the workbook."""

from __future__ import annotations

import pytest

from scoring.models import Deal
from tests.conftest import as_user
from tests.scoring.apis.test_sheet_import import (
    _download,
    _empty_match,
    _rows,
    _upload,
    league,  # noqa: F401 - a fixture
)
from tests.scoring.conftest import deal_body, page_deal_body, post_deal
from tests.scoring.excel import table, workbook

pytestmark = pytest.mark.django_db


def test_a_deal_records_its_auction_as_the_notation_writes_it(api, match, organizer):
    as_user(api, organizer)
    body = {**deal_body(1, declarer="B", value=30, trump="hearts", level="doubled")}
    answer = post_deal(api, match, {**body, "auction": "a:28s  30♥ p p x P p p p p"})
    assert answer.status_code == 201, answer.json()
    assert answer.json()["auction"] == "A: 28S 30H P P X P P P P P"
    assert Deal.objects.get(match=match).auction == "A: 28S 30H P P X P P P P P"
    history = api.get(f"/api/v1/matches/{match.pk}/history/").json()["results"]
    assert history[-1]["after"]["auction"] == "A: 28S 30H P P X P P P P P"
    plain = post_deal(api, match, deal_body(2))
    assert plain.status_code == 201 and plain.json()["auction"] is None
    history = api.get(f"/api/v1/matches/{match.pk}/history/").json()["results"]
    assert "auction" not in history[-1]["after"]


@pytest.mark.parametrize(
    ("auction", "code_words"),
    [
        ("A: 28S 28H P P P P P", "does not rank above"),
        ("A: 40C P P P P P", "but the deal records 40 C by A"),
        ("A: 40C P X P P P P P", "its own contract"),
        ("A: 40C P P", "is not over"),
    ],
)
def test_a_wrong_auction_is_refused_naming_the_rule(
    api, match, organizer, auction, code_words
):
    as_user(api, organizer)
    body = deal_body(1, declarer="A", value=40, trump="clubs")
    if code_words.startswith("but"):
        auction = "B: 40C P P P P P"  # ends on B's contract, the deal says A's
    answer = post_deal(api, match, {**body, "auction": auction})
    assert answer.status_code == 400, answer.json()
    assert list(answer.json()) == ["auction"]
    assert code_words in answer.json()["auction"][0]
    assert not Deal.objects.filter(match=match).exists()


def test_a_wrong_bidder_and_a_wrong_auction_are_refused_together(api, match, organizer):
    as_user(api, organizer)
    answer = post_deal(
        api,
        match,
        {**deal_body(1), "bidder": "Nobody", "auction": "A: 28S P P P P P"},
    )
    assert answer.status_code == 400
    assert set(answer.json()) == {"bidder", "auction"}


def test_the_auction_follows_the_table_size(api, match, organizer):
    """Four players at a table of two a side: the auction ends after three passes."""
    match.tournament.players_per_team = 2
    match.tournament.save()
    as_user(api, organizer)
    answer = post_deal(api, match, {**deal_body(1), "auction": "A: 40C P P P"})
    assert answer.status_code == 201, answer.json()


def test_the_score_page_takes_an_auction(client, match, organizer):
    client.force_login(organizer)
    page = client.get(f"/matches/{match.pk}/score/").content.decode()
    assert 'name="auction"' in page and 'class="auction-pad"' in page
    body = page_deal_body(match, auction="A: 40C P P P P P")
    assert client.post(f"/matches/{match.pk}/score/", body).status_code == 302
    assert "A: 40C P P P P P" in client.get(f"/matches/{match.pk}/").content.decode()
    wrong = client.post(
        f"/matches/{match.pk}/score/",
        {**body, "number": "2", "auction": "A: 41C P P P P P", "version": "2"},
    )
    assert wrong.status_code == 400
    assert "ends on 41 C by A" in wrong.content.decode()


@pytest.mark.parametrize("reverse", ["NT28", "nt28", "N28", "P28"])
def test_a_reverse_bid_in_no_trump_or_pass_is_refused(api, match, organizer, reverse):
    """000 §3 approves a suit before its number ("Clubs 28"), never no-trump, Noes or
    Pass ("Pass 28" is listed as not approved): the API names the call and the rule
    and saves nothing."""
    as_user(api, organizer)
    body = deal_body(1, declarer="A", value=28, trump="no_trump")
    answer = post_deal(api, match, {**body, "auction": f"A: {reverse} P P P P P"})
    assert answer.status_code == 400, answer.json()
    (message,) = answer.json()["auction"]
    assert f"call 1 ({reverse}) is not an approved bid" in message
    assert 'write 28N (000 §3: "Pass 28" is not approved)' in message
    assert not Deal.objects.filter(match=match).exists()
    approved = post_deal(api, match, {**body, "auction": "A: 28NT P P P P P"})
    assert approved.status_code == 201, approved.json()
    assert approved.json()["auction"] == "A: 28N P P P P P"
    reverse_suit = deal_body(2, declarer="B", value=30, trump="spades", taken=30)
    answer = post_deal(api, match, {**reverse_suit, "auction": "B: S30 P P P P P"})
    assert answer.status_code == 201, answer.json()
    assert answer.json()["auction"] == "B: 30S P P P P P"


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "call 2 (NT30) is not an approved bid"),
        ("ml", "വിളി 2 (NT30) അംഗീകരിച്ച വിളിയല്ല"),
    ],
)
def test_the_score_page_refuses_an_unapproved_bid_in_its_language(
    client, match, organizer, language, words
):
    client.force_login(organizer)
    body = page_deal_body(
        match, value="30", trump="no_trump", taken="30", auction="A: 28S NT30 P P P P P"
    )
    answer = client.post(
        f"/matches/{match.pk}/score/", body, HTTP_ACCEPT_LANGUAGE=language
    )
    assert answer.status_code == 400
    page = answer.content.decode()
    assert words in page and "30N" in page and "000 §3" in page
    assert not Deal.objects.filter(match=match).exists()


def test_bidder_and_auction_go_out_on_paper_and_come_back(api, league):  # noqa: F811
    tournament, organizer = league
    played = _empty_match(tournament, organizer, deals=2)
    first_a = played.team_a.players.order_by("position")[0].name
    post_deal(
        api,
        played,
        {**deal_body(1), "bidder": first_a, "auction": "B: P 40C P P P P P"},
    )
    post_deal(api, played, deal_body(2, declarer="B"))
    book = _download(api, played.pk)
    ws = book.worksheets[0]
    first = _rows(ws, "Declarer")
    header = [c.value for c in ws[first - 1]]
    bidder, auction = header.index("Bidder") + 1, header.index("Auction") + 1
    assert ws.cell(first, bidder).value == first_a
    assert ws.cell(first, auction).value == "B: P 40C P P P P P"

    # On another match, the same file sets both; a bidder typed on paper is added.
    empty = _empty_match(tournament, organizer, deals=2)
    ws["B2"], ws["E2"] = empty.pk, empty.version
    ws.cell(first, bidder).value = empty.team_a.players.first().name.lower()
    ws.cell(first + 1, bidder).value = empty.team_b.players.last().name
    answer = _upload(api, book)
    assert answer.status_code == 200, answer.json()
    got = {d.number: (d.bidder, d.auction) for d in Deal.objects.filter(match=empty)}
    assert got == {
        1: (empty.team_a.players.first().name, "B: P 40C P P P P P"),
        2: (empty.team_b.players.last().name, ""),
    }

    # A bad one names its row and column, and nothing is saved.
    ws["E2"] = api.get(f"/api/v1/matches/{empty.pk}/").json()["version"]
    ws.cell(first, auction).value = "B: P 41C P P P P P"
    ws.cell(first + 1, bidder).value = "Stranger"
    refused = _upload(api, book)
    assert refused.status_code == 400
    problems = {(p["row"], p["field"]) for p in refused.json()["errors"]}
    assert problems == {(first, "auction"), (first + 1, "bidder")}


def test_a_sheet_printed_without_the_columns_keeps_what_the_site_holds(
    api,
    league,  # noqa: F811
):
    tournament, organizer = league
    match = _empty_match(tournament, organizer, deals=1)
    player = match.team_a.players.first().name
    post_deal(
        api, match, {**deal_body(1), "bidder": player, "auction": "A: 40C P P P P P"}
    )
    book = _download(api, match.pk)
    ws = book.worksheets[0]
    first = _rows(ws, "Declarer")
    ws.delete_cols(11, 2)  # an older sheet: no Bidder, no Auction
    ws.cell(first, 6).value = 30  # the deal's taken changes
    answer = _upload(api, book)
    assert answer.status_code == 200, answer.json()
    deal = Deal.objects.get(match=match)
    assert (deal.taken, deal.bidder, deal.auction) == (30, player, "A: 40C P P P P P")


def test_the_workbook_lists_bidder_and_auction(api, league):  # noqa: F811
    tournament, organizer = league
    match = _empty_match(tournament, organizer, deals=1)
    player = match.team_a.players.first().name
    post_deal(
        api, match, {**deal_body(1), "bidder": player, "auction": "A: 40C P P P P P"}
    )
    answer = api.get(f"/api/v1/tournaments/{tournament.slug}/export.xlsx")
    rows = table(workbook(answer.content), "Score sheets")
    (line,) = [r for r in rows if r["Match id"] == match.pk and r["Line"] == "Deal"]
    assert (line["Bidder"], line["Auction"]) == (player, "A: 40C P P P P P")
