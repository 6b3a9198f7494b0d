"""The Excel tab and the paper score sheets, as organizers and scorers use them."""

from __future__ import annotations

import io
import re
import time

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.models import Deal, Match, Penalty
from scoring.sheets import services as sheets_services
from tests.brackets.knockout import final_league
from tests.factories import TeamFactory, member
from tests.scoring.league import play_quickly, tables_in_play
from tournament.domain.types import Role
from tournament.models import Link, LinkKind

SLUG = "page-cup"


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def league(db):
    return final_league(2, 3, qualifiers=4, slug=SLUG)


@pytest.mark.django_db
def test_the_excel_tab_is_for_the_tournaments_staff(client, league):
    tournament, organizer = league
    url = reverse("scoring:excel", args=[SLUG])
    assert client.get(url).status_code == 302  # to the login page
    team = TeamFactory(section=tournament.sections.first())
    captain = member(tournament, Role.CAPTAIN, team=team)
    assert _client(captain).get(url).status_code == 403
    page = _client(member(tournament, Role.SCORER)).get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Build the workbook" in html
    assert "Print the round" in html
    assert "Import filled score sheets" not in html  # organizers only
    html = _client(organizer).get(url).content.decode()
    assert "Import filled score sheets" in html
    assert ">Excel</a>" in html
    # The API's address is for whoever runs the site, not the desk (issue 52).
    assert "Scripts:" not in html and "<code>GET /api/v1/" not in html
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_superuser(
        "site-admin", password="x-56-site-admin"
    )
    assert "export.xlsx</code>" in _client(admin).get(url).content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_build_shows_its_progress_then_offers_the_file(celery_worker_running):
    tournament, organizer = final_league(2, 3, qualifiers=4, slug=SLUG)
    client = _client(organizer)
    url = reverse("scoring:excel", args=[SLUG])
    answer = client.post(url, {"action": "export"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    fragment = answer.content.decode()
    deadline = time.monotonic() + 30
    while "Download" not in fragment:
        assert "Building the workbook" in fragment
        assert 'hx-trigger="every 1s"' in fragment
        assert time.monotonic() < deadline
        time.sleep(0.2)
        job = re.search(r'id="export-job-(\d+)"', fragment).group(1)
        fragment = client.get(
            reverse("scoring:export-job", args=[SLUG, job])
        ).content.decode()
    assert "hx-trigger" not in fragment  # done: the polling stops
    link = re.search(r'href="([^"]+/download/)"', fragment).group(1)
    download = client.get(link)
    assert download.status_code == 200
    assert download["Content-Type"].startswith("application/vnd.openxmlformats")
    assert f"{SLUG}-" in download["Content-Disposition"]
    assert _client(member(tournament, Role.SCORER)).get(link).status_code == 200
    other = final_league(2, 3, qualifiers=4, slug="other-cup")[1]
    foreign = reverse("scoring:export-download", args=["other-cup", 1])
    assert _client(other).get(foreign).status_code == 404


@pytest.mark.django_db
def test_an_organizer_imports_a_round_from_the_page(league):
    tournament, organizer = league
    client = _client(organizer)
    content = client.get(
        reverse("scoring-api:round-sheets-xlsx", args=[SLUG]) + "?round=1"
    ).content
    upload = io.BytesIO(content)
    upload.name = "round-1.xlsx"
    page = client.post(
        reverse("scoring:excel", args=[SLUG]), {"action": "import", "file": upload}
    )
    assert page.status_code == 200
    html = page.content.decode()
    tables = Match.objects.filter(tournament=tournament, round=1).count()
    assert f"Imported {tables} sheets." in html
    assert "unchanged" in html

    bad = io.BytesIO(b"not a workbook")
    bad.name = "notes.txt"
    page = client.post(
        reverse("scoring:excel", args=[SLUG]), {"action": "import", "file": bad}
    )
    assert page.status_code == 400
    assert "not an .xlsx workbook" in page.content.decode()
    scorer = _client(member(tournament, Role.SCORER))
    upload.seek(0)
    refused = scorer.post(
        reverse("scoring:excel", args=[SLUG]), {"action": "import", "file": upload}
    )
    assert refused.status_code == 403


@pytest.mark.django_db
def test_a_paper_sheet_prints_with_a_row_per_deal(
    client, league, django_assert_max_num_queries
):
    tournament, organizer = league
    match = Match.objects.filter(tournament=tournament).order_by("pk").first()
    page = client.get(reverse("scoring:match-print", args=[match.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert match.team_a.name in html and match.team_b.name in html
    assert html.count('<article class="paper-sheet">') == 1
    rows = re.findall(r"<tr class=\"[^\"]*\">\s*<th>(\d+)", html)
    assert rows == [str(n) for n in range(1, match.deals_scheduled + 1)]
    assert "Captain A" in html
    match_page = client.get(reverse("scoring:match", args=[match.pk])).content.decode()
    assert reverse("scoring:match-print", args=[match.pk]) in match_page

    assert 'class="sheet-qr"' not in html  # a visitor's print carries no link

    staff = _client(organizer)
    url = reverse("scoring:round-print", args=[SLUG]) + "?round=2"
    staff.get(url)  # the first print makes the tables' links (docs/links.md)
    with django_assert_max_num_queries(13):
        html = staff.get(url).content.decode()
    tables = Match.objects.filter(tournament=tournament, round=2).count()
    assert html.count('<article class="paper-sheet">') == tables
    # Each staff sheet carries its own table's link as a QR code.
    assert html.count('class="sheet-qr"') == tables
    links = Link.objects.filter(tournament=tournament, kind=LinkKind.TABLE)
    assert links.count() >= tables
    assert (
        f"Table {match.table}: scan to score"
        in staff.get(reverse("scoring:match-print", args=[match.pk])).content.decode()
    )
    assert (
        staff.get(reverse("scoring:round-print", args=[SLUG]) + "?round=x").status_code
        == 404
    )


@pytest.mark.django_db(transaction=True)
def test_a_workbook_asked_for_on_a_malayalam_page_is_built_in_english(
    celery_worker_running,
):
    """The page speaks Malayalam; the workbook is a file format read back on import,
    so it stays English even where the build runs inside that page's request."""
    import openpyxl

    from scoring.models import ExportJob, ExportStatus

    organizer = final_league(2, 3, qualifiers=4, slug="ml-cup")[1]
    client = _client(organizer)
    client.post("/i18n/setlang/", {"language": "ml", "next": "/"})
    url = reverse("scoring:excel", args=["ml-cup"])
    assert '<html lang="ml">' in client.get(url).content.decode()
    client.post(url, {"action": "export"})
    deadline = time.monotonic() + 30
    job = ExportJob.objects.get(tournament__slug="ml-cup")
    while job.status != ExportStatus.DONE:
        assert time.monotonic() < deadline and job.status != ExportStatus.FAILED
        time.sleep(0.2)
        job.refresh_from_db()
    workbook = openpyxl.load_workbook(io.BytesIO(bytes(job.content)))
    words = " ".join(
        str(cell.value)
        for sheet in workbook.worksheets
        for row in sheet.iter_rows(max_row=6)
        for cell in row
        if cell.value is not None
    )
    assert "Standings" in workbook.sheetnames
    assert not re.search("[\u0d00-\u0d7f]", words + " ".join(workbook.sheetnames))


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ml"])
def test_a_printed_sheet_shows_each_penalty_s_points_the_award_and_the_bidder(
    language,
):
    """Issue 50: the printed sheet left every penalty's points empty but conduct's,
    did not say which deal a penalty gave away, had no bidder, and showed the sheet's
    version ("(v24)"), which a player cannot read."""
    _, organizer, _, matches = tables_in_play(
        f"print-words-{language}", tables=1, deals=6
    )
    match = matches[0]
    play_quickly(match.pk, organizer, 12, 9, deals=6)
    for deal, kind, points in (
        (2, "out_of_turn", None),  # the first out of turn: a warning
        (3, "out_of_turn", None),  # the second: worked out to points
        (4, "conduct", 2),
        (5, "kallakali", None),  # gives the deal to the other team
    ):
        sheets_services.score_sheet_penalty_record(
            match_id=match.pk,
            user=organizer,
            version=None,
            deal=deal,
            offender="A",
            kind=kind,
            points=points,
            note="",
            by_organizer=True,
        )
    Deal.objects.filter(match=match, number=1).update(bidder="Ravi Menon")
    client = _client(organizer)
    client.cookies["django_language"] = language
    page = client.get(reverse("scoring:match-print", args=[match.pk]))
    assert page.status_code == 200
    html = page.content.decode()

    with translation.override(language):
        bidder = str(translation.gettext("Bidder"))
        warning = translation.pgettext(
            "a penalty's points on the printed sheet", "warning"
        )
        kallakali = translation.gettext("Kallakali")
        given = translation.gettext("given to %(side)s (%(penalty)s)") % {
            "side": "B",
            "penalty": kallakali,
        }
    if language == "ml":
        assert (bidder, warning) == ("വിളിച്ചയാൾ", "താക്കീത്")
        assert "Kallakali" not in given
    assert f"<th>{bidder}</th>" in html
    assert "<td>Ravi Menon</td>" in html
    assert given in html
    assert "(v" not in html

    penalties = re.search(r'<table class="paper-penalties">.*?</table>', html, re.S)
    rows = re.findall(
        r"<tr><td>(\d+)</td><td>A</td><td>[^<]*</td><td>([^<]*)</td>",
        penalties.group(0),
    )
    worked = {
        p.deal.number: p.points
        for p in Penalty.objects.filter(deal__match=match).select_related("deal")
    }
    assert worked[3] > 0 and worked[5] > 0
    assert rows == [
        ("2", warning),
        ("3", str(worked[3])),
        ("4", "2"),
        ("5", str(worked[5])),
    ]


@pytest.mark.django_db
def test_a_build_whose_worker_is_gone_says_so_plainly(
    league, settings, django_assert_num_queries, django_assert_max_num_queries
):
    """Issue 53: a worker killed mid-build left the tab at "Building … (31%)" for
    minutes. A job whose beat is older than the beat allows (no live worker sent it
    again) says that no worker is building it, that it goes on when one is back, and
    what to do; from the job's row alone, in the poll's one query, in both
    languages."""
    from datetime import timedelta

    from django.utils import timezone

    from scoring.models import ExportJob

    tournament, organizer = league
    client = _client(organizer)
    now = timezone.now()
    # A live worker sends a job back within one periodic resend of going stale: up to
    # EXPORT_STALE_SECONDS and a resend's interval (5 s) old, a build is still a build.
    alive = ExportJob.objects.create(
        tournament=tournament,
        status="running",
        total=100,
        progress=31,
        attempts=1,
        beat_at=now - timedelta(seconds=settings.EXPORT_STALE_SECONDS + 5),
    )
    fragment_url = reverse("scoring:export-job", args=[SLUG, alive.pk])
    with django_assert_max_num_queries(5) as polled:
        fragment = client.get(fragment_url).content.decode()
    queries = len(polled.captured_queries)
    assert "Building the workbook: 31 of 100 score sheets (31%)" in fragment
    assert "No worker" not in fragment
    assert 'hx-trigger="every 1s"' in fragment

    ExportJob.objects.filter(pk=alive.pk).update(beat_at=now - timedelta(minutes=3))
    with django_assert_num_queries(queries):
        fragment = client.get(fragment_url).content.decode()
    page = client.get(reverse("scoring:excel", args=[SLUG])).content.decode()
    for html in (fragment, page):
        assert (
            "No worker is building the workbook just now: it stopped at 31 of 100 "
            "score sheets (31%)."
        ) in html
        assert (
            "it starts again by itself, from the first score sheet, as soon as a "
            "worker is back"
        ) in html
        assert "tell the site's administrator" in html
        assert "Building the workbook" not in html
        assert "<progress" not in html
    assert 'hx-trigger="every 5s"' in fragment  # still polled: it goes on by itself

    # Queued and never started (no worker since the request): waiting for one.
    ExportJob.objects.filter(pk=alive.pk).update(status="queued", progress=0)
    fragment = client.get(fragment_url).content.decode()
    assert "No worker is building the workbook just now: it is waiting" in fragment

    client.post("/i18n/setlang/", {"language": "ml", "next": "/"})
    ExportJob.objects.filter(pk=alive.pk).update(status="running", progress=31)
    fragment = client.get(fragment_url).content.decode()
    assert "ഇപ്പോൾ ഒരു പശ്ചാത്തല വർക്കറും വർക്ക്ബുക്ക് തയ്യാറാക്കുന്നില്ല" in fragment
    assert "അഡ്മിനിസ്ട്രേറ്ററെ അറിയിക്കുക" in fragment
    assert "No worker" not in fragment
