"""The statistics API (API.md "Statistics", docs/statistics.md)."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournament.db.cache import Recent, cached
from tournament.web.api import (
    NOT_MODIFIED,
    ReadOnlyOrAuthenticated,
    TournamentScopedMixin,
    if_none_match,
)
from tournament.web.etags import etag_sent

from ..domain import statistics as stats
from ..domain.rules import PenaltyKind
from .selectors import QUOTE, Names, statistics_fingerprint, statistics_parts


class ValueBandOutput(serializers.Serializer):
    low = serializers.IntegerField()
    high = serializers.IntegerField()
    declared = serializers.IntegerField()
    made = serializers.IntegerField()


class ContractFiguresOutput(serializers.Serializer):
    declared = serializers.IntegerField(help_text="Contracts declared.")
    made = serializers.IntegerField()
    defeated = serializers.IntegerField()
    made_percent = serializers.FloatField(
        allow_null=True, help_text="Made of declared, in per cent; null: none."
    )
    average_value = serializers.FloatField(
        allow_null=True, help_text="The average contract value; null: none declared."
    )
    doubled = serializers.IntegerField()
    doubled_made = serializers.IntegerField()
    redoubled = serializers.IntegerField()
    redoubled_made = serializers.IntegerField()
    bid_56 = serializers.IntegerField(help_text="Contracts of 56 declared.")
    made_56 = serializers.IntegerField(help_text="Contracts of 56 made.")


class BidderOutput(ContractFiguresOutput):
    team = serializers.IntegerField()
    team_name = serializers.CharField()
    player = serializers.CharField(help_text="The bidder as the deals record him.")


class RecordWhereOutput(serializers.Serializer):
    match = serializers.IntegerField()
    stage = serializers.CharField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()


class MatchMarkOutput(RecordWhereOutput):
    total = serializers.IntegerField()
    opponent = serializers.IntegerField()
    opponent_name = serializers.CharField()
    opponent_total = serializers.IntegerField()
    margin = serializers.IntegerField()


class RunDealOutput(RecordWhereOutput):
    deal = serializers.IntegerField()


class MadeRunOutput(serializers.Serializer):
    length = serializers.IntegerField()
    first = RunDealOutput()
    last = RunDealOutput()


class ByValueOutput(ContractFiguresOutput):
    by_value = ValueBandOutput(
        many=True,
        help_text="By the scoring chart's bands of values: 28-39, 40-47, 48-55, 56.",
    )


class TeamStatisticsOutput(ByValueOutput):
    team = serializers.IntegerField()
    team_name = serializers.CharField()
    kallakali_caught = serializers.IntegerField(
        help_text="Kallakali this team proved against its opponents."
    )
    kallakali_suffered = serializers.IntegerField(help_text="This team was caught.")
    penalties_against = serializers.IntegerField(
        help_text="Times this team offended (warnings included)."
    )
    penalties_against_by_kind = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="By kind: " + ", ".join(k.value for k in PenaltyKind) + ".",
    )
    biggest_win = MatchMarkOutput(allow_null=True)
    highest_total = MatchMarkOutput(allow_null=True)
    longest_run = MadeRunOutput(allow_null=True)


class RecordHolderOutput(serializers.Serializer):
    team = serializers.IntegerField()
    team_name = serializers.CharField()
    player = serializers.CharField(allow_null=True)
    match = MatchMarkOutput(allow_null=True)
    run = MadeRunOutput(allow_null=True)


class StatisticsRecordOutput(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=[(k.value, k.value) for k in stats.RecordKind]
    )
    title = serializers.CharField()
    value = serializers.IntegerField()
    holders = RecordHolderOutput(many=True)
    tied = serializers.IntegerField(help_text="How many hold it (holders: up to 10).")


class StatisticsOutput(serializers.Serializer):
    deals = serializers.IntegerField(help_text="Deals counted.")
    overall = ByValueOutput(help_text="Every counted contract.")
    bidders_recorded = serializers.IntegerField(
        help_text="Of them, deals whose bidder was recorded."
    )
    players = BidderOutput(many=True)
    teams = TeamStatisticsOutput(many=True)
    records = StatisticsRecordOutput(many=True)


def figures_data(figures: stats.Figures) -> dict[str, Any]:
    return {
        "declared": figures.declared,
        "made": figures.made,
        "defeated": figures.defeated,
        "made_percent": figures.made_percent,
        "average_value": figures.average_value,
        "doubled": figures.doubled,
        "doubled_made": figures.doubled_made,
        "redoubled": figures.redoubled,
        "redoubled_made": figures.redoubled_made,
        "bid_56": figures.bid_56,
        "made_56": figures.made_56,
    }


def by_value_data(figures: stats.Figures) -> list[dict[str, int]]:
    return [
        {"low": b.low, "high": b.high, "declared": b.declared, "made": b.made}
        for b in figures.bands
    ]


def mark_data(mark: stats.Mark | None, names: Names) -> dict[str, Any] | None:
    if mark is None:
        return None
    return {
        "match": mark.match,
        "stage": mark.stage,
        "round": mark.round,
        "table": mark.table,
        "total": mark.total,
        "opponent": mark.opponent,
        "opponent_name": names.team(mark.opponent),
        "opponent_total": mark.opponent_total,
        "margin": mark.margin,
    }


def _at(at: stats.DealAt) -> dict[str, Any]:
    return {
        "match": at.match,
        "stage": at.stage,
        "round": at.round,
        "table": at.table,
        "deal": at.number,
    }


def run_data(run: stats.Run | None) -> dict[str, Any] | None:
    if run is None:
        return None
    return {"length": run.length, "first": _at(run.first), "last": _at(run.last)}


def statistics_data(
    found: stats.Statistics, names: Names, *, parts: bool = True
) -> dict[str, Any]:
    """The API's document (without its players' and teams' rows: `parts` False)."""
    rows: dict[str, Any] = {}
    if parts:
        rows = {
            "players": [player_data(p, names) for p in found.players],
            "teams": [
                team_data(t, names)
                for t in sorted(
                    found.teams, key=lambda t: names.team(t.team).casefold()
                )
            ],
        }
    return {
        "deals": found.deals,
        "overall": {
            **figures_data(found.overall),
            "by_value": by_value_data(found.overall),
        },
        "bidders_recorded": found.bidders_recorded,
        **rows,
        "records": [
            {
                "kind": r.kind.value,
                "title": r.title,
                "value": r.value,
                "holders": [
                    {
                        "team": h.team,
                        "team_name": names.team(h.team),
                        "player": h.player or None,
                        "match": mark_data(h.mark, names),
                        "run": run_data(h.run),
                    }
                    for h in r.holders
                ],
                "tied": r.tied,
            }
            for r in found.records
        ],
    }


def player_data(p: stats.PlayerStatistics, names: Names) -> dict[str, Any]:
    return {
        "team": p.team,
        "team_name": names.team(p.team),
        "player": p.player,
        **figures_data(p.figures),
    }


def team_data(t: stats.TeamStatistics, names: Names) -> dict[str, Any]:
    return {
        "team": t.team,
        "team_name": names.team(t.team),
        **figures_data(t.figures),
        "by_value": by_value_data(t.figures),
        "kallakali_caught": t.kallakali_caught,
        "kallakali_suffered": t.kallakali_suffered,
        "penalties_against": t.penalties_against,
        "penalties_against_by_kind": dict(t.penalties_against_by_kind),
        "biggest_win": mark_data(t.biggest_win, names),
        "highest_total": mark_data(t.highest_total, names),
        "longest_run": run_data(t.longest_run),
    }


def _json(data: Any) -> bytes:
    """As DRF's JSONRenderer writes it: compact, UTF-8, the two line separators
    that JavaScript strings cannot hold escaped."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029").encode()


class _Rows(NamedTuple):
    team: bytes
    players: dict[str, bytes]


def team_rows(
    key: str,
    team: stats.TeamStatistics,
    players: list[stats.PlayerStatistics],
    names: Names,
) -> _Rows:
    """A team's rows as JSON, by its part's key (selectors.part_keys: a digest of
    everything the part, and the names it shows, are made from): never stale, and
    rendered again where missing. A reading after a sheet write renders the rows of
    the two teams it changed and joins every other team's as they were."""
    found = _ROWS.get(key)
    if found is None:
        found = _Rows(
            _json(team_data(team, names)),
            {p.player: _json(player_data(p, names)) for p in players},
        )
        _ROWS.put(key, found)
    return found


_ROWS = Recent(20_000)


def statistics_json(
    found: stats.Statistics, names: Names, keys: dict[int, str]
) -> bytes:
    """statistics_data as the API's JSON, each team's rows joined as rendered for
    its part (the same document, byte for byte, as rendering it whole)."""
    by_team: dict[int, list[stats.PlayerStatistics]] = {}
    for p in found.players:
        by_team.setdefault(p.team, []).append(p)
    rows = {
        t.team: team_rows(keys[t.team], t, by_team.get(t.team, []), names)
        for t in found.teams
    }
    teams = sorted(found.teams, key=lambda t: names.team(t.team).casefold())
    head = _json(
        {
            "deals": found.deals,
            "overall": {
                **figures_data(found.overall),
                "by_value": by_value_data(found.overall),
            },
            "bidders_recorded": found.bidders_recorded,
        }
    )
    records = _json(statistics_data(found, names, parts=False)["records"])
    return b"".join(
        [
            head[:-1],
            b',"players":[',
            b",".join(rows[p.team].players[p.player] for p in found.players),
            b'],"teams":[',
            b",".join(rows[t.team].team for t in teams),
            b'],"records":',
            records,
            b"}",
        ]
    )


class StatisticsApi(TournamentScopedMixin, APIView):
    """Who bid what and how it went: every bidder's and team's contracts, the
    penalties against each team, and the tournament's records (docs/statistics.md).
    Void and forfeited sheets and unreleased rounds are left out. The answer is
    computed once per state of the sheets and kept under their fingerprint, which
    is also its ETag: 304 when the client holds it."""

    permission_classes = [ReadOnlyOrAuthenticated]

    @extend_schema(
        operation_id="statistics_get",
        parameters=[
            if_none_match("statistics"),
        ],
        responses={
            200: StatisticsOutput,
            304: NOT_MODIFIED,
        },
    )
    def get(self, request, slug):
        etag = statistics_fingerprint(tournament=self.tournament)
        headers = {"ETag": etag, "Cache-Control": "private, no-cache"}
        if etag_sent(request, etag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers=headers)

        def answer() -> bytes:
            return statistics_json(*statistics_parts(tournament=self.tournament))

        body = cached(
            f"statistics-json:{self.tournament.pk}:{etag.strip(QUOTE)}", answer
        )
        return HttpResponse(body, content_type="application/json", headers=headers)
