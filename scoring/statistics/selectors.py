"""Reading a tournament's statistics (docs/statistics.md): SQL sums and counts, the
rules in scoring/domain/statistics.py.

Which deals count: every deal on a sheet that is neither void nor forfeited, in a
league round that is released (or set up by hand) or in the knockout; a sheet still
being played counts as far as it goes. Match totals and margins come from decided
sheets only (completed or confirmed), where the totals are final.

Four queries, whatever the size: the tallies (one GROUP BY over the deals), the
penalty counts (one GROUP BY over the penalties), the decided matches, and the deals
in the order they were played, for the runs; with the teams' names, five.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Case, Count, F, Q, QuerySet, Sum, When
from django.urls import reverse

from tournament.models import Team, Tournament

from ..domain import statistics as stats
from ..domain.rules import VALUE_MAX, Level, MatchStatus, PenaltyKind, Side, Stage
from ..models import Deal, Match, Penalty
from ..sheets.selectors import draft_rounds

COUNTED = (MatchStatus.IN_PROGRESS, MatchStatus.COMPLETED, MatchStatus.CONFIRMED)
FINAL = (MatchStatus.COMPLETED, MatchStatus.CONFIRMED)


def _counted(tournament: Tournament, statuses=COUNTED) -> Q:  # type: ignore[no-untyped-def]
    """The matches whose deals count, as a filter on matches."""
    return Q(tournament=tournament, status__in=statuses) & ~Q(
        stage=Stage.LEAGUE, round__in=draft_rounds(tournament)
    )


def _declaring_team(prefix: str = "match__") -> Case:
    return Case(
        When(declarer=Side.A.value, then=F(f"{prefix}team_a_id")),
        default=F(f"{prefix}team_b_id"),
    )


def counted_deals(*, tournament: Tournament) -> QuerySet[Deal]:
    return Deal.objects.filter(
        match__in=Match.objects.filter(_counted(tournament)).values("pk")
    )


def declared_by(team: int) -> Q:
    """Deals `team` declared, as a filter on deals."""
    return Q(declarer=Side.A.value, match__team_a_id=team) | Q(
        declarer=Side.B.value, match__team_b_id=team
    )


def tallies_list(
    *, tournament: Tournament, team: int | None = None
) -> list[stats.Tally]:
    """Every declaring team's and bidder's contracts (or one team's), summed in one
    GROUP BY."""
    made = Q(made=True)
    deals = counted_deals(tournament=tournament)
    if team is not None:
        deals = deals.filter(declared_by(team))
    rows = (
        deals.annotate(team=_declaring_team())
        .values("team", "bidder")
        .annotate(
            declared=Count("id"),
            made_count=Count("id", filter=made),
            value_sum=Sum("value"),
            doubled=Count("id", filter=Q(level=Level.DOUBLED.value)),
            doubled_made=Count("id", filter=made & Q(level=Level.DOUBLED.value)),
            redoubled=Count("id", filter=Q(level=Level.REDOUBLED.value)),
            redoubled_made=Count("id", filter=made & Q(level=Level.REDOUBLED.value)),
            bid_56=Count("id", filter=Q(value=VALUE_MAX)),
            made_56=Count("id", filter=made & Q(value=VALUE_MAX)),
            **{
                f"band_{i}": Count("id", filter=Q(value__gte=low, value__lte=high))
                for i, (low, high) in enumerate(stats.BANDS)
            },
            **{
                f"band_made_{i}": Count(
                    "id", filter=made & Q(value__gte=low, value__lte=high)
                )
                for i, (low, high) in enumerate(stats.BANDS)
            },
        )
        .order_by()
    )
    return [
        stats.Tally(
            team=r["team"],
            bidder=r["bidder"],
            declared=r["declared"],
            made=r["made_count"],
            value_sum=r["value_sum"],
            doubled=r["doubled"],
            doubled_made=r["doubled_made"],
            redoubled=r["redoubled"],
            redoubled_made=r["redoubled_made"],
            bid_56=r["bid_56"],
            made_56=r["made_56"],
            band_declared=tuple(r[f"band_{i}"] for i in range(len(stats.BANDS))),
            band_made=tuple(r[f"band_made_{i}"] for i in range(len(stats.BANDS))),
        )
        for r in rows
    ]


def penalty_counts(*, tournament: Tournament) -> list[stats.PenaltyCount]:
    """Penalties by offending team, its opponent and kind, counted in one GROUP BY."""
    rows = (
        Penalty.objects.filter(
            deal__match__in=Match.objects.filter(_counted(tournament)).values("pk")
        )
        .annotate(
            offending=Case(
                When(offender=Side.A.value, then=F("deal__match__team_a_id")),
                default=F("deal__match__team_b_id"),
            ),
            opponent=Case(
                When(offender=Side.A.value, then=F("deal__match__team_b_id")),
                default=F("deal__match__team_a_id"),
            ),
        )
        .values("offending", "opponent", "kind")
        .annotate(n=Count("id"))
        .order_by()
    )
    return [
        stats.PenaltyCount(
            r["offending"], r["opponent"], PenaltyKind(r["kind"]), r["n"]
        )
        for r in rows
    ]


def match_scores(*, tournament: Tournament) -> list[stats.MatchScore]:
    return [
        stats.MatchScore(*row)
        for row in Match.objects.filter(_counted(tournament, FINAL))
        .order_by()
        .values_list(
            "pk",
            "stage",
            "round",
            "table",
            "team_a_id",
            "team_b_id",
            "total_a",
            "total_b",
            "winner",
        )
    ]


def runs_get(*, tournament: Tournament) -> dict[int, stats.Run]:
    """Each team's longest run of contracts made: the counted deals in the order
    they were played (league, then knockout; round; deal number), read narrow."""
    rows = (
        counted_deals(tournament=tournament)
        .annotate(team=_declaring_team())
        .order_by("match__stage", "match__round", "match_id", "number")
        .values_list(
            "team",
            "made",
            "match_id",
            "match__stage",
            "match__round",
            "match__table",
            "number",
        )
    )
    return stats.made_runs(
        (team, made, stats.DealAt(match, stage, round, table, number))
        for team, made, match, stage, round, table, number in rows
    )


@dataclass(frozen=True)
class Names:
    """The names the statistics show: teams by id, with their sections."""

    teams: dict[int, str]
    sections: dict[int, str]

    def team(self, pk: int) -> str:
        return self.teams.get(pk, f"team {pk}")


def holder_where(holder: stats.Holder, names: Names) -> str:
    """Where a record was set, in words: the match's score and opponent, or the
    deals a run went from and to; "" for a count over the tournament."""

    def round_of(stage: str, round: int) -> str:
        return f"{'knockout ' if stage == Stage.KNOCKOUT else ''}round {round}"

    if holder.mark is not None:
        m = holder.mark
        return (
            f"{m.total}–{m.opponent_total} against {names.team(m.opponent)}, "
            f"{round_of(m.stage, m.round)}, table {m.table}"
        )
    if holder.run is not None:
        a, b = holder.run.first, holder.run.last
        return (
            f"from {round_of(a.stage, a.round)} deal {a.number} "
            f"to {round_of(b.stage, b.round)} deal {b.number}"
        )
    return ""


def names_get(*, tournament: Tournament) -> Names:
    teams, sections = {}, {}
    for pk, name, section in Team.objects.filter(tournament=tournament).values_list(
        "pk", "name", "section__name"
    ):
        teams[pk], sections[pk] = name, section or ""
    return Names(teams, sections)


def statistics_get(*, tournament: Tournament) -> tuple[stats.Statistics, Names]:
    """The tournament's statistics and the names they show: five queries."""
    names = names_get(tournament=tournament)
    found = stats.statistics_compute(
        tallies=tallies_list(tournament=tournament),
        penalties=penalty_counts(tournament=tournament),
        scores=match_scores(tournament=tournament),
        runs=runs_get(tournament=tournament),
        teams=list(names.teams),  # every team has its row, zeros included
    )
    return found, names


def player_deals(*, tournament: Tournament, team: int, player: str) -> QuerySet[Deal]:
    """The counted contracts `player` won the auction of for `team`, in order."""
    return (
        counted_deals(tournament=tournament)
        .filter(declared_by(team), bidder=player)
        .select_related("match__team_a", "match__team_b")
        .order_by("match__stage", "match__round", "match_id", "number")
    )


def player_url(tournament: Tournament, team: int, player: str) -> str:
    return reverse(
        "scoring:player",
        kwargs={"slug": tournament.slug, "pk": team, "name": player},
    )


def team_players_get(
    *, tournament: Tournament, team: int
) -> list[stats.PlayerStatistics]:
    """The figures of a team's bidders, most contracts first, and its deals without
    a recorded bidder as a row with player "" (last): one query."""
    tallies = tallies_list(tournament=tournament, team=team)
    rows = [
        stats.PlayerStatistics(t.team, t.bidder, stats.figures_of(t)) for t in tallies
    ]
    rows.sort(key=lambda p: (not p.player, -p.figures.declared, p.player.casefold()))
    return rows
