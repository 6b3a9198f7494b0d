"""Reads of Excel (docs/exports.md): the tournament workbook's sheets as plain values
for excel/workbook.py, and paper score sheets of one match or a round.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby
from typing import Any

from django.db.models import F
from django.utils import timezone

from scoring.models import Bye, LeagueRound
from tournament.domain.roster import roster_at, roster_played
from tournament.domain.types import RoundStage, TeamStatus
from tournament.models import Substitution, Team, Tournament
from tournament.selectors import rosters_get
from tournament.web.zones import local, zone_named

from ..domain import rules, tiebreak
from ..domain import standings as ranking
from ..domain import statistics as stats
from ..domain.rules import MatchStatus, Stage
from ..league.selectors import draw_current, standings_get
from ..models import Deal, Dispute, Match, Penalty, SheetAction, SheetChange
from ..ratings.selectors import tournament_ratings
from ..sheets.selectors import DEAL_VALUE_FIELDS, SheetView, sheet_settle
from ..signals import export_bracket
from ..statistics.selectors import holder_where, statistics_get
from . import paper, workbook

# The tournament workbook (docs/exports.md)
# ----------------------------------------------------------------------------------


def _local(moment, tournament: Tournament):
    """A naive time in the tournament's zone: Excel cells have no time zone (each
    sheet names the zone under its title). Converted here, not by the request's
    zone: the worker that builds the workbook has no request."""
    if not moment:
        return None
    return local(moment, tournament.time_zone).replace(tzinfo=None)


def _teams_sheet(tournament: Tournament) -> workbook.TableSheet:
    players = tournament.players_per_team

    def rows():
        teams = (
            Team.objects.filter(tournament=tournament)
            .select_related("section")
            .prefetch_related("players")
            .order_by("section__name", "name")
        )
        for team in teams:
            names = {p.position: p.name for p in team.players.all()}
            yield [
                team.name,
                team.section.name,
                team.captain_name,
                team.captain_city,
                team.captain_state,
                team.captain_country,
                *(names.get(n, "") for n in range(2, players + 1)),
                team.pk,
            ]

    return workbook.TableSheet("Teams", workbook.teams_columns(players), rows())


def _draw_sheet(tournament: Tournament) -> workbook.TableSheet:
    draw = draw_current(tournament=tournament)

    def rows():
        released = {
            r.number: r.released
            for r in LeagueRound.objects.filter(tournament=tournament)
        }
        matches = (
            Match.objects.filter(tournament=tournament, stage=Stage.LEAGUE)
            .select_related("team_a__section", "team_b__section")
            .order_by("round", "table", "pk")
        )
        byes: dict[int, list[Team]] = {}
        for bye in Bye.objects.filter(tournament=tournament).select_related(
            "team__section"
        ):
            byes.setdefault(bye.round, []).append(bye.team)
        shown: set[int] = set()

        def bye_rows(upto: int):
            """The byes of every round before `upto` not listed yet."""
            for number in sorted(r for r in byes if r < upto and r not in shown):
                shown.add(number)
                for team in sorted(byes[number], key=lambda t: t.name):
                    yield [
                        number,
                        None,
                        team.name,
                        team.section.name,
                        "(bye)",
                        None,
                        released.get(number, True),
                        "bye",
                        *([None] * 5),
                    ]

        for m in matches:
            yield from bye_rows(m.round)  # a round's byes follow its last table
            winner = {"A": m.team_a.name, "B": m.team_b.name}.get(m.winner)
            played = m.status != MatchStatus.SCHEDULED
            yield [
                m.round,
                m.table,
                m.team_a.name,
                m.team_a.section.name,
                m.team_b.name,
                m.team_b.section.name,
                released.get(m.round, True),
                m.status,
                m.total_a if played else None,
                m.total_b if played else None,
                winner,
                _local(m.confirmed_at, tournament),
                m.pk,
            ]
        yield from bye_rows(10**6)

    note = (
        f"Draw {draw.number} ({draw.algorithm}, seed {draw.seed})"
        if draw is not None
        else "The league is not drawn yet."
    )
    return workbook.TableSheet("Draw", workbook.DRAW_COLUMNS, rows(), note=note)


def _standings_sheet(tournament: Tournament) -> workbook.TableSheet:
    standings = standings_get(tournament=tournament)
    p = standings.progress
    if standings.final:
        note = "Final: every league sheet is confirmed."
    else:
        note = (
            f"Provisional: {p.decided} of {p.matches} league matches decided, "
            f"{p.confirmed} confirmed."
        )
    if standings.lot is not None:
        note += f" Equal places drawn by lot (seed {standings.lot.seed})."

    # rules.md §9, lots wait for the end: mid-league, teams equal across the
    # qualifying line are tied there; only the final standings wait for a lot.
    undecided = "by lot, to be drawn" if standings.final else "tied across the line"

    def qualifies(value):
        return {True: "yes", False: "no"}.get(value, undecided)

    rows = (
        [
            s.place,
            s.rank,
            row.team.name,
            row.team.section,
            s.played,
            s.won,
            s.tied,
            s.lost,
            s.byes,
            s.r1,
            ranking.shown(s.r2),
            ranking.shown(s.r3),
            ranking.shown(s.r4),
            s.provisional,
            row.shared,
            s.lot,
            qualifies(row.qualifies),
            s.forfeits_won,
            s.forfeits_lost,
            s.withdrawn,
            row.team.id,
        ]
        for row in standings.rows
        for s in (row.standing,)
    )
    return workbook.TableSheet("Standings", workbook.STANDINGS_COLUMNS, rows, note=note)


def _day_sheet(tournament: Tournament, matches: list[Match]) -> workbook.TableSheet:
    """The tournament day (rules.md §9): absences from a check-in draw,
    withdrawals, substitutions, forfeits, disputes and rulings, oldest first."""
    events: list[list] = []
    teams = Team.objects.filter(tournament=tournament).exclude(status=TeamStatus.ACTIVE)
    for team in teams.select_related("withdrawn_by"):
        if team.status == TeamStatus.WITHDRAWN:
            events.append(
                [
                    _local(team.withdrawn_at, tournament),
                    "Withdrawal",
                    team.name,
                    "league",
                    team.withdrawn_from_round,
                    None,
                    None,
                    f"from round {team.withdrawn_from_round}: {team.withdrawn_reason}",
                    team.withdrawn_by.username if team.withdrawn_by else "",
                    None,
                ]
            )
        else:
            events.append(
                [
                    None,
                    "Absent",
                    team.name,
                    "league",
                    None,
                    None,
                    None,
                    "not checked in when the league was drawn",
                    "",
                    None,
                ]
            )
    for sub in Substitution.objects.filter(team__tournament=tournament).select_related(
        "team", "approved_by"
    ):
        events.append(
            [
                _local(sub.approved_at, tournament),
                "Substitution",
                sub.team.name,
                sub.stage,
                sub.from_round,
                None,
                None,
                f"{sub.player_in} for {sub.player_out}: {sub.reason}",
                sub.approved_by.username if sub.approved_by else "",
                None,
            ]
        )
    by_id = {m.pk: m for m in matches}
    forfeits = SheetChange.objects.filter(
        match__tournament=tournament, action=SheetAction.FORFEIT
    ).order_by("pk")
    for change in forfeits:
        m = by_id.get(change.match_id)
        if m is None or m.status != MatchStatus.FORFEITED:
            continue  # reopened since: its history keeps it
        absent = (change.after or {}).get("absent", "")
        who = "both teams" if absent == "both" else m.team(absent).name
        events.append(
            [
                _local(change.at, tournament),
                "Forfeit",
                who,
                m.stage,
                m.round,
                m.table,
                None,
                f"{who} absent: {change.reason}",
                change.actor_name,
                m.pk,
            ]
        )
    for d in Dispute.objects.filter(match__tournament=tournament).order_by("pk"):
        m = by_id[d.match_id]
        where = [m.stage, m.round, m.table, d.deal]
        events.append(
            [
                _local(d.raised_at, tournament),
                "Dispute",
                f"{m.team_a.name} v {m.team_b.name}",
                *where,
                f"({d.raised_as}) {d.text}",
                d.raised_by_name,
                m.pk,
            ]
        )
        if not d.open:
            events.append(
                [
                    _local(d.ruled_at, tournament),
                    "Ruling",
                    f"{m.team_a.name} v {m.team_b.name}",
                    *where,
                    d.ruling,
                    d.ruled_by_name,
                    m.pk,
                ]
            )
    events.sort(key=lambda e: (e[0] is not None, e[0] or 0))
    return workbook.TableSheet(
        "Tournament day",
        workbook.DAY_COLUMNS,
        events,
        note="Absences, withdrawals, substitutions, forfeits, disputes and rulings.",
    )


def _roster_sheet(matches: list[Match]) -> workbook.TableSheet:
    """Who played for each team in each match (two queries)."""
    teams = {t for m in matches for t in (m.team_a_id, m.team_b_id)}
    rosters = rosters_get(teams=sorted(teams))

    def rows():
        for m in matches:
            stage = RoundStage(m.stage)
            # rules.md §9: the absent team of a forfeit played nobody.
            absent = m.forfeit_absent
            a = roster_played(
                roster_at(*rosters[m.team_a_id], stage, m.round), "A", absent
            )
            b = roster_played(
                roster_at(*rosters[m.team_b_id], stage, m.round), "B", absent
            )
            yield [
                m.stage,
                m.round,
                m.table,
                m.team_a.name,
                ", ".join(a),
                m.team_b.name,
                ", ".join(b),
                m.status,
                m.pk,
            ]

    return workbook.TableSheet("Rosters", workbook.ROSTER_COLUMNS, rows())


def _sheet_blocks(matches: list[Match], progress) -> Iterator[workbook.SheetBlock]:
    """Every match's sheet as computed by the rules engine, one match's rows in memory
    at a time (the deals stream from the database in match order)."""
    if not matches:
        return
    penalties: dict[int, list[Penalty]] = {}
    for p in (
        Penalty.objects.filter(deal__match__tournament_id=matches[0].tournament_id)
        .annotate(match_id=F("deal__match_id"))
        .order_by("pk")
    ):
        penalties.setdefault(p.match_id, []).append(p)
    # The deals stream in the workbook's order of matches, so one match's rows are
    # in memory at a time.
    deals = (
        Deal.objects.filter(match__tournament_id=matches[0].tournament_id)
        .only(*DEAL_VALUE_FIELDS, "bidder", "auction", "match_id")
        .order_by("-match__stage", "match__round", "match__table", "match_id", "number")
        .iterator(chunk_size=4000)
    )

    def block(match: Match, rows: list[Deal]) -> workbook.SheetBlock:
        own = penalties.get(match.pk, [])
        view = SheetView(match, rows, own, *sheet_settle(match, rows, own))
        return workbook.SheetBlock(
            stage=match.stage,
            round=match.round,
            table=match.table,
            match=match.pk,
            team_a=match.team_a.name,
            team_b=match.team_b.name,
            status=match.status,
            deals=[_deal_line(d, r, on_deal) for d, r, on_deal in view.rows()],
        )

    groups = groupby(deals, key=lambda d: d.match_id)
    current = next(groups, None)
    for done, match in enumerate(matches, start=1):
        rows: list[Deal] = []
        if current is not None and current[0] == match.pk:
            rows = list(current[1])
            current = next(groups, None)
        yield block(match, rows)
        progress(done, len(matches))
    if current is not None:
        raise AssertionError(f"deals of match {current[0]} out of the export's order")


def _deal_line(
    deal: Deal, row: rules.SheetRow, penalties: list[Penalty]
) -> workbook.DealLine:
    """A deal as the workbook and the paper sheet show it: what was played, and what
    the rules engine gave for it (`row`)."""
    result = row.result
    return workbook.DealLine(
        number=deal.number,
        declarer=deal.declarer,
        value=deal.value,
        trump=deal.trump,
        level=deal.level,
        taken=deal.taken,
        made=result.made,
        award_to=result.award_to.value,
        award=result.award,
        awarded_by=result.awarded_by or "",
        received_a=row.received_a,
        received_b=row.received_b,
        total_a=row.total_a,
        total_b=row.total_b,
        bidder=deal.bidder,
        auction=deal.auction,
        penalties=[
            workbook.PenaltyLine(
                kind=p.kind,
                offender=p.offender,
                award_to=p.award_to,
                points=p.points,
                warning=p.warning,
                note=p.note,
            )
            for p in penalties
        ],
    )


def export_matches(*, tournament: Tournament) -> list[Match]:
    """The sheets the workbook lists, league first, then the knockout in order."""
    return list(
        Match.objects.filter(tournament=tournament)
        .select_related("tournament", "team_a", "team_b")
        .order_by("-stage", "round", "table", "pk")
    )


def tournament_workbook(
    *, tournament: Tournament, progress=lambda done, total: None, now=None
) -> bytes:
    """The whole tournament as one workbook (API.md Exports): Teams, Draw, Standings,
    Score sheets and Bracket. `progress(done, total)` is told after each score sheet
    written."""
    title, sheets = tournament_workbook_sheets(tournament=tournament, progress=progress)
    return workbook.tournament_workbook_build(
        title=title,
        exported_at=_local(now or timezone.now(), tournament),
        time_zone=zone_named(now or timezone.now(), tournament.time_zone),
        sheets=sheets,
    )


def tournament_workbook_sheets(
    *, tournament: Tournament, progress=lambda done, total: None
) -> tuple[str, list[workbook.TableSheet]]:
    """The workbook's title and its sheets, whose rows are read (and each score sheet
    scored) as they are written. Without the writing, it is the workbook's floor
    (bench/export.py)."""
    matches = export_matches(tournament=tournament)
    answers = [
        answer
        for _, answer in export_bracket.send(sender=Tournament, tournament=tournament)
        if answer is not None
    ]
    bracket_rows, bracket_note, places = answers[0] if answers else ([], "", None)
    title = tournament.name
    if tournament.starts_on:
        title += f", {tournament.starts_on:%d %b %Y}"
    sheets = [
        _teams_sheet(tournament),
        _draw_sheet(tournament),
        _standings_sheet(tournament),
        workbook.TableSheet(
            "Score sheets",
            workbook.SCORE_SHEET_COLUMNS,
            workbook.score_sheet_rows(_sheet_blocks(matches, progress)),
            note=f"{len(matches)} score sheets, league first.",
        ),
        workbook.TableSheet(
            "Bracket",
            workbook.BRACKET_COLUMNS,
            bracket_rows,
            note=bracket_note or "The knockout is not seeded yet.",
        ),
        workbook.TableSheet(
            "Final places",
            workbook.FINAL_PLACES_COLUMNS,
            places or [],
            note=(
                "Every team's final place: the podium, then each knockout round's "
                "losers sharing the place after every team that went further, then "
                "the teams that did not qualify in league order, then the teams "
                "that withdrew."
                if places is not None
                else "Given once the final is decided."
            ),
        ),
        _day_sheet(tournament, matches),
        _roster_sheet(matches),
        _statistics_sheet(tournament),
    ]
    return title, sheets


def _statistics_sheet(tournament: Tournament) -> workbook.TableSheet:
    found, names = statistics_get(tournament=tournament)

    def figures(f: stats.Figures) -> list[Any]:
        return [
            f.declared,
            f.made,
            f.defeated,
            f.made_percent,
            f.average_value,
            f.doubled_made,
            f.redoubled_made,
            f.bid_56,
            f.made_56,
        ]

    rated = tournament_ratings(tournament=tournament)

    def rows() -> Iterator[list[Any]]:
        yield from (row + [None] * 3 for row in lines())
        for r in rated:
            yield [
                "Rating",
                names.team(r.team),
                r.name,
                *([None] * 19),
                r.before.display,
                r.after.display,
                r.matches,
            ]

    def lines() -> Iterator[list[Any]]:
        for p in found.players:
            yield ["Player", names.team(p.team), p.player, *figures(p.figures)] + [
                None
            ] * 10
        for t in sorted(found.teams, key=lambda t: names.team(t.team).casefold()):
            yield [
                "Team",
                names.team(t.team),
                None,
                *figures(t.figures),
                t.kallakali_caught,
                t.kallakali_suffered,
                t.penalties_against,
                ", ".join(
                    f"{workbook.said(k, workbook.PENALTY_WORDS)} {n}"
                    for k, n in t.penalties_against_by_kind.items()
                ),
                t.biggest_win.margin if t.biggest_win else None,
                t.highest_total.total if t.highest_total else None,
                t.longest_run.length if t.longest_run else None,
                None,
                None,
                None,
            ]
        for r in found.records:
            for h in r.holders:
                yield [
                    "Record",
                    names.team(h.team),
                    h.player or None,
                    *([None] * 16),
                    r.title,
                    r.value,
                    holder_where(h, names) or None,
                ]

    return workbook.TableSheet(
        "Statistics",
        workbook.STATISTICS_COLUMNS,
        rows(),
        note=f"{found.deals} deals counted, {found.bidders_recorded} with their "
        "bidder; void and forfeited sheets left out. Ratings: every player's rating "
        "before the tournament and after it, from the rated matches of every "
        "tournament on this site (a new player starts at 1000; a win against "
        "stronger players raises it more).",
    )


# Paper score sheets (docs/exports.md)
# ----------------------------------------------------------------------------------


def sheet_printed(view: SheetView) -> paper.PrintedSheet:
    """The paper score sheet of one match: its heading, and whatever it holds."""
    match = view.match
    knockout = match.stage == Stage.KNOCKOUT and match.deals_scheduled is not None
    heading = paper.MatchHeading(
        tournament=match.tournament.name,
        match=match.pk,
        version=match.version,
        stage=match.stage,
        round=match.round,
        table=match.table,
        team_a=match.team_a.name,
        team_b=match.team_b.name,
        deals_scheduled=match.deals_scheduled,
        tiebreak_deals=tiebreak.TIEBREAK_DEALS if knockout else 0,
        toss_winner=match.toss_winner,
        first_dealer=match.first_dealer,
    )
    deals = [_deal_line(d, r, on_deal) for d, r, on_deal in view.rows()]
    numbers = {d.pk: d.number for d in view.deals}
    penalties = [
        paper.PrintedPenalty(
            deal=numbers[p.deal_id],
            offender=p.offender,
            kind=p.kind,
            points=p.points if p.kind == rules.PenaltyKind.CONDUCT else None,
            note=p.note,
            given=p.points,
            warning=p.warning,
        )
        for p in view.penalties
    ]
    return heading, deals, penalties


def sheets_printed(*, matches: list[Match]) -> list[paper.PrintedSheet]:
    """The paper sheets of several matches (a round) in three queries."""
    deals: dict[int, list[Deal]] = {m.pk: [] for m in matches}
    for d in Deal.objects.filter(match__in=matches).order_by("number"):
        deals[d.match_id].append(d)
    penalties: dict[int, list[Penalty]] = {m.pk: [] for m in matches}
    for p in (
        Penalty.objects.filter(deal__match__in=matches)
        .annotate(match_id=F("deal__match_id"))
        .order_by("deal__number", "pk")
    ):
        penalties[p.match_id].append(p)
    return [
        sheet_printed(
            SheetView(
                m,
                deals[m.pk],
                penalties[m.pk],
                *sheet_settle(m, deals[m.pk], penalties[m.pk]),
            )
        )
        for m in matches
    ]
