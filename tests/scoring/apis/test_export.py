"""The whole tournament as one workbook (API.md, Exports; docs/exports.md): opened
with openpyxl and checked sheet by sheet against the API's answers for the same
tournament, and the background build with its progress, its file and its faults."""

from __future__ import annotations

import time
from datetime import datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.excel import services
from scoring.excel.workbook import (
    LEVEL_WORDS,
    MATCH_STATUS_WORDS,
    PENALTY_WORDS,
    TRUMP_WORDS,
    said,
)
from scoring.models import ExportJob, Match
from tests.brackets.knockout import bracket, final_league, matches_of, play_sheet
from tests.conftest import as_user
from tests.factories import TeamFactory, member
from tests.scoring.excel import every, table, workbook
from tests.scoring.league import confirm, deals_for, enter
from tournament.domain.types import Role

SLUG = "xl-cup"
EXPORT = f"/api/v1/tournaments/{SLUG}/export.xlsx"
EXPORTS = f"/api/v1/tournaments/{SLUG}/exports/"


def _played(api):
    """A final league of 6 teams, its knockout of 4 seeded, the first semi-final
    played with penalties and confirmed, the second in progress."""
    tournament, organizer = final_league(2, 3, qualifiers=4, slug=SLUG)
    as_user(api, organizer)
    seeded = api.post(
        f"/api/v1/tournaments/{SLUG}/knockout/",
        {"deals": {"semi_final": 6, "second_runner_up": 6, "final": 6}},
        "json",
    )
    assert seeded.status_code == 201, seeded.json()
    semis = [m for m in matches_of(bracket(api, SLUG)).values() if m["match"]]
    first, second = semis[0]["match"], semis[1]["match"]
    sheet = play_sheet(api, first, 9, 4, 5)
    url = f"/api/v1/matches/{first}/"
    for body in (
        {"deal": 2, "offender": "B", "kind": "out_of_turn"},
        {"deal": 3, "offender": "B", "kind": "kallakali"},
        {"deal": 4, "offender": "A", "kind": "conduct", "points": 2, "note": "late"},
    ):
        answer = api.post(
            url + "penalties/", {**body, "version": sheet["version"]}, "json"
        )
        assert answer.status_code == 201, answer.json()
        sheet = answer.json()
    enter(api, first, deals_for(3, 0), first=6)
    confirm(api, first)
    enter(api, second, deals_for(2, 3))
    return tournament, organizer


@pytest.fixture
def played(api, db):
    return _played(api)


@pytest.mark.django_db
def test_the_workbook_says_what_the_api_says(api, played):
    tournament, _ = played
    answer = api.get(EXPORT)
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("application/vnd.openxmlformats")
    assert f'filename="{SLUG}.xlsx"' in answer["Content-Disposition"]
    book = workbook(answer.content)
    assert book.sheetnames == [
        "Teams",
        "Draw",
        "Standings",
        "Score sheets",
        "Bracket",
        "Final places",
        "Tournament day",
        "Rosters",
        "Statistics",
    ]

    # Every sheet: a title naming the tournament, the export time as a date, the
    # header row frozen, widths set, a filter and a printable page.
    for ws in book.worksheets:
        assert ws["A1"].value == f"{tournament.name} — {ws.title}"
        assert ws["A2"].value == "Exported"
        assert isinstance(ws["B2"].value, datetime)
        assert abs(ws["B2"].value - timezone.localtime().replace(tzinfo=None)) < (
            timedelta(minutes=5)
        )
        assert ws.freeze_panes == "A5"
        assert ws.column_dimensions["A"].width > 5
        assert ws.auto_filter.ref.startswith("A4:")
        assert ws.print_title_rows == "$4:$4"
        assert ws.page_setup.orientation == "landscape"
        assert ws.sheet_properties.pageSetUpPr.fitToPage
        assert ws.page_setup.fitToWidth in (None, 1)  # 1 page wide (None: Excel's 1)

    teams = {t["name"]: t for t in every(api, f"/api/v1/tournaments/{SLUG}/teams/")}
    rows = table(book, "Teams")
    assert {r["Team"] for r in rows} == set(teams)
    for r in rows:
        t = teams[r["Team"]]
        assert (r["Section"], r["Captain"], r["Team id"]) == (
            t["section_name"],
            t["captain"]["name"],
            t["id"],
        )
        assert [r[f"Player {n}"] for n in (2, 3)] == [
            p or None for p in t["players"][1:3]
        ]

    league = every(api, f"/api/v1/tournaments/{SLUG}/matches/?stage=league")
    draw = [r for r in table(book, "Draw") if r["Status"] != "Bye"]
    assert [
        (r["Round"], r["Table"], r["Team A"], r["Team B"], r["Match id"]) for r in draw
    ] == [
        (m["round"], m["table"], m["team_a_name"], m["team_b_name"], m["id"])
        for m in sorted(league, key=lambda m: (m["round"], m["table"]))
    ]
    by_id = {m["id"]: m for m in league}
    for r in draw:
        m = by_id[r["Match id"]]
        assert (r["Total A"], r["Total B"], r["Status"]) == (
            m["total_a"],
            m["total_b"],
            said(m["status"], MATCH_STATUS_WORDS),
        )
        assert isinstance(r["Total A"], int)
        assert isinstance(r["Confirmed at"], datetime)
        assert r["Released"] == "yes"

    standings = api.get(f"/api/v1/tournaments/{SLUG}/standings/").json()
    assert [
        (
            r["Place"],
            r["Rank"],
            r["Team"],
            r["Played"],
            r["Won"],
            r["R1"],
            r["R2"],
            r["R3"],
            r["R4"],
        )
        for r in table(book, "Standings")
    ] == [
        (
            s["place"],
            s["rank"],
            s["team_name"],
            s["played"],
            s["won"],
            s["r1"],
            s["r2"],
            s["r3"],
            s["r4"],
        )
        for s in standings["rows"]
    ]
    assert book["Standings"]["C2"].value.startswith("Final")

    lines = table(book, "Score sheets")
    matches = every(api, f"/api/v1/tournaments/{SLUG}/matches/")
    assert {r["Match id"] for r in lines} == {m["id"] for m in matches}
    for m in matches:
        sheet = api.get(f"/api/v1/matches/{m['id']}/").json()
        own = [r for r in lines if r["Match id"] == m["id"]]
        deals = [r for r in own if r["Line"] == "Deal"]
        assert [
            (
                r["Deal"],
                r["Declarer"],
                r["Value"],
                r["Trump"],
                r["Level"],
                r["Taken"],
                r["Award to"],
                r["Award"],
                r["Total A"],
                r["Total B"],
            )
            for r in deals
        ] == [
            (
                d["number"],
                d["declarer"],
                d["value"],
                said(d["trump"], TRUMP_WORDS),
                said(d["level"], LEVEL_WORDS),
                d["taken"],
                d["award_to"],
                d["award"],
                d["running_a"],
                d["running_b"],
            )
            for d in sheet["deals"]
        ]
        penalties = [r for r in own if r["Line"] == "Penalty"]
        assert [
            (r["Deal"], r["Penalty"], r["Offender"], r["Points"], r["Note"])
            for r in penalties
        ] == [
            (
                p["deal"],
                said(p["kind"], PENALTY_WORDS),
                p["offender"],
                p["points"],
                p["note"] or None,
            )
            for p in sheet["penalties"]
        ]
        if not sheet["deals"]:
            assert [r["Line"] for r in own] == ["No deals"]
    # The semi-final with penalties: the kallakali gave deal 3 away, with 3 more.
    kallakali = next(r for r in lines if r["Penalty"] == "Kallakali")
    deal_3 = next(
        r
        for r in lines
        if r["Match id"] == kallakali["Match id"] and r["Line"] == "Deal"
        if r["Deal"] == 3
    )
    assert deal_3["Awarded by"] == "Kallakali"

    data = bracket(api, SLUG)
    rows = [r for r in table(book, "Bracket") if r["Match"] is not None]
    assert [
        (
            r["Match"],
            r["Seed A"],
            r["Team A"],
            r["Seed B"],
            r["Team B"],
            r["Total A"],
            r["Total B"],
        )
        for r in rows
        if r["Game"] is None
    ] == [
        (
            m["number"],
            m["seed_a"],
            m["team_a_name"],
            m["seed_b"],
            m["team_b_name"],
            m["total_a"],
            m["total_b"],
        )
        for m in matches_of(data).values()
    ]
    decided = next(m for m in matches_of(data).values() if m["winner"])
    row = next(r for r in rows if r["Match"] == decided["number"])
    assert row["Winner"] == decided[f"team_{decided['winner'].lower()}_name"]
    assert row["Decided by"] == "Total"


@pytest.mark.django_db
def test_a_tournament_before_its_draw_exports_empty_sheets(api, tournament):
    as_user(api, member(tournament, Role.SCORER))
    answer = api.get(f"/api/v1/tournaments/{tournament.slug}/export.xlsx")
    book = workbook(answer.content)
    assert table(book, "Draw") == []
    assert book["Draw"]["C2"].value == "The league is not drawn yet."
    assert book["Bracket"]["C2"].value == "The knockout is not seeded yet."
    assert table(book, "Final places") == []
    assert book["Final places"]["C2"].value == "Given once the final is decided."


@pytest.mark.django_db
def test_only_the_tournaments_staff_export(api, played):
    tournament, _ = played
    api.force_authenticate(user=None)
    assert api.get(EXPORT).status_code in (401, 403)
    assert api.post(EXPORTS).status_code in (401, 403)
    team = TeamFactory(section=tournament.sections.first())
    as_user(api, member(tournament, Role.CAPTAIN, team=team))
    assert api.get(EXPORT).status_code == 403
    assert api.post(EXPORTS).status_code == 403
    assert not ExportJob.objects.exists()


def _query_count(api, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert api.get(url).status_code == 200
    return len(queries)


@pytest.mark.django_db
def test_the_export_reads_in_a_constant_number_of_queries(api):
    _, organizer = final_league(2, 3, qualifiers=2, slug="small-cup")
    as_user(api, organizer)
    few = _query_count(api, "/api/v1/tournaments/small-cup/export.xlsx")
    _, organizer = final_league(3, 6, qualifiers=4, slug="large-cup")
    as_user(api, organizer)
    many = _query_count(api, "/api/v1/tournaments/large-cup/export.xlsx")
    assert few == many
    assert many <= 30  # the Statistics sheet reads five (docs/statistics.md)


def _wait_done(api, job: dict) -> dict:
    """Poll a job as a client would, until it is done or failed (30 s at most)."""
    deadline = time.monotonic() + 30
    while job["status"] in ("queued", "running"):
        assert time.monotonic() < deadline, job
        time.sleep(0.2)
        answer = api.get(f"/api/v1/exports/{job['id']}/")
        assert answer.status_code == 200
        job = answer.json()
    return job


@pytest.mark.django_db(transaction=True)
def test_a_build_in_the_background_offers_its_file_when_done(
    api, celery_worker_running
):
    _played(api)
    started = api.post(EXPORTS)
    assert started.status_code == 202, started.json()
    job = _wait_done(api, started.json())
    assert job["status"] == "done"
    assert job["progress"] == job["total"] == Match.objects.count()
    assert job["percent"] == 100
    assert job["file"] == f"/api/v1/exports/{job['id']}/export.xlsx"
    answer = api.get(job["file"])
    assert answer.status_code == 200
    assert len(answer.content) == job["size"]
    book = workbook(answer.content)
    assert len({r["Match id"] for r in table(book, "Score sheets")}) == job["total"]
    listed = api.get(EXPORTS).json()
    assert [j["id"] for j in listed] == [job["id"]]


@pytest.mark.django_db(transaction=True)
def test_a_large_tournament_is_built_in_the_background(
    api, celery_worker_running, settings
):
    """Above EXPORT_INLINE_MAX_DEALS the export answers 202 and a job (with a real
    broker); with eager Celery, the embedded default, the same code runs in the
    request and the file comes straight back."""
    _played(api)
    settings.EXPORT_INLINE_MAX_DEALS = 0
    answer = api.get(EXPORT)
    if settings.CELERY_TASK_ALWAYS_EAGER:
        assert answer.status_code == 200
        assert workbook(answer.content).sheetnames[0] == "Teams"
        return
    assert answer.status_code == 202, answer.content
    assert answer["Location"] == f"/api/v1/exports/{answer.json()['id']}/"
    job = _wait_done(api, answer.json())
    assert job["status"] == "done"
    assert api.get(job["file"]).status_code == 200


@pytest.mark.django_db
def test_a_file_is_offered_only_when_done(api, played):
    tournament, _ = played
    job = ExportJob.objects.create(tournament=tournament, total=3, progress=1)
    answer = api.get(f"/api/v1/exports/{job.pk}/export.xlsx")
    assert answer.status_code == 409
    assert answer.json()["code"] == "export_not_ready"
    shown = api.get(f"/api/v1/exports/{job.pk}/").json()
    assert (shown["status"], shown["percent"], shown["file"]) == ("queued", 33, None)
    # A job of another tournament does not exist for this organizer.
    other, _ = final_league(2, 3, qualifiers=2, slug="other-cup")
    foreign = ExportJob.objects.create(tournament=other)
    assert api.get(f"/api/v1/exports/{foreign.pk}/").status_code == 404


@pytest.mark.django_db
def test_a_job_whose_worker_is_gone_says_it_waits_for_one(api, played, settings):
    """Issue 53: a job whose beat is older than the beat allows (no live worker sent
    it again) says so, and what to do, in the job itself and in the tournament's
    list; a job that beats, or is done, does not."""
    tournament, _ = played
    now = timezone.now()
    fresh = now - timedelta(seconds=1)
    stopped = now - timedelta(minutes=3)
    beating = ExportJob.objects.create(
        tournament=tournament, status="running", total=10, progress=3, beat_at=fresh
    )
    shown = api.get(f"/api/v1/exports/{beating.pk}/").json()
    assert (shown["waiting_for_worker"], shown["note"]) == (False, "")
    ExportJob.objects.filter(pk=beating.pk).update(beat_at=stopped)
    shown = api.get(f"/api/v1/exports/{beating.pk}/").json()
    assert shown["status"] == "running" and shown["waiting_for_worker"] is True
    assert shown["note"].startswith("No worker is building this workbook just now.")
    assert "as soon as a worker is back" in shown["note"]
    assert "tell the site's administrator" in shown["note"]
    (listed,) = api.get(EXPORTS).json()
    assert listed["waiting_for_worker"] is True
    ExportJob.objects.filter(pk=beating.pk).update(
        status="failed", error="stopped", finished_at=now
    )
    assert api.get(f"/api/v1/exports/{beating.pk}/").json()["waiting_for_worker"] is (
        False
    )


@pytest.mark.django_db(transaction=True)
def test_repeated_requests_share_the_build_under_way(api, celery_worker_running):
    tournament, _ = _played(api)
    live = ExportJob.objects.create(
        tournament=tournament, status="running", total=10, progress=4
    )
    answer = api.post(EXPORTS)
    assert answer.status_code == 200
    assert answer.json()["id"] == live.pk
    # A job not heard from for long (its worker died) is not waited for.
    ExportJob.objects.filter(pk=live.pk).update(
        updated_at=timezone.now() - services.EXPORT_STALE - timedelta(seconds=1)
    )
    answer = api.post(EXPORTS)
    assert answer.status_code == 202
    assert answer.json()["id"] != live.pk
    assert _wait_done(api, answer.json())["status"] == "done"


@pytest.mark.django_db
def test_a_task_delivered_again_after_a_dead_worker_builds_once_more(played):
    """A worker killed mid-build leaves the job running with no file; the broker
    gives the task again (acks late), and the new run starts over and finishes."""
    tournament, _ = played
    job = ExportJob.objects.create(
        tournament=tournament, status="running", total=10, progress=7, attempts=1
    )
    assert job.content is None
    done = services.export_run(job_id=job.pk)
    assert (done.status, done.attempts, bool(done.content)) == ("done", 2, True)
    assert services.export_run(job_id=job.pk) is None  # delivered twice: built once


@pytest.mark.django_db
def test_a_failed_build_keeps_no_file_and_says_why(played, monkeypatch):
    tournament, _ = played

    def broken(**kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(services, "tournament_workbook", broken)
    job = ExportJob.objects.create(tournament=tournament)
    failed = services.export_run(job_id=job.pk)
    assert failed.status == "failed"
    assert failed.content is None
    assert failed.error == "OSError: disk full"


@pytest.mark.django_db(transaction=True)
def test_the_last_five_workbooks_are_kept(api, celery_worker_running):
    tournament, _ = _played(api)
    ids = [_wait_done(api, api.post(EXPORTS).json())["id"] for _ in range(7)]
    kept = list(
        ExportJob.objects.filter(tournament=tournament).values_list("pk", flat=True)
    )
    assert sorted(kept) == sorted(ids[-services.EXPORTS_KEPT :])
