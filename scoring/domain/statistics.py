"""The statistics of a tournament: who bid what and how it went, per player and per
team, and the tournament's records (docs/statistics.md).

What it computes: from tallies that SQL sums per declaring team and bidder, each
player's and team's contracts declared, made and defeated, the made percentage, the
average contract value, doubled and redoubled contracts made, 56 contracts bid and
made; from the penalties SQL counts, kallakali caught and suffered and penalties
against by kind; from the decided matches, each team's biggest win and highest match
total; from the deals in the order they were played, each team's longest run of
made contracts; and the records over all of them, with every holder of a tie.

What it does not: read the database, or decide which sheets count (the selector
leaves out void and forfeited sheets and rounds not released, docs/statistics.md).
Whether a contract was made is the rules engine's (rules.py: a deal given away by a
penalty counts as made when the defenders offended and as defeated when the
declarer did, 000 §3.10); this module counts what the sheet stores.

Vocabulary: a *tally* is what SQL summed for one team and one bidder ("" for the
team's deals whose bidder was not recorded); *figures* are what is shown of a tally;
a *mark* is one team's result in one decided match; a *run* is an unbroken line of
a team's contracts made, in the order the deals were played; a *record* is the best
figure of the tournament and who holds it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from operator import add
from typing import Protocol, TypeVar

from .rules import CHART, PenaltyKind

# The contract values' bands of the scoring chart (000 §1.3): 28-39, 40-47, 48-55, 56.
BANDS: tuple[tuple[int, int], ...] = tuple((low, high) for low, high, _, _ in CHART)
NO_BANDS = (0,) * len(BANDS)

HOLDERS_MAX = 10  # a record names at most this many tied holders
T = TypeVar("T")


@dataclass(frozen=True)
class Tally:
    """Contracts declared by one team with one bidder, as SQL sums them."""

    team: int
    bidder: str = ""  # "" : the deals of the team without a recorded bidder
    declared: int = 0
    made: int = 0
    value_sum: int = 0
    doubled: int = 0
    doubled_made: int = 0
    redoubled: int = 0
    redoubled_made: int = 0
    bid_56: int = 0
    made_56: int = 0
    band_declared: tuple[int, ...] = NO_BANDS  # by BANDS
    band_made: tuple[int, ...] = NO_BANDS

    def plus(self, other: Tally) -> Tally:
        """Both tallies' counts, under this one's team and bidder."""
        return tally_of(
            self.team,
            self.bidder,
            [a + b for a, b in zip(self.vector(), other.vector(), strict=True)],
        )

    def vector(self) -> tuple[int, ...]:
        """Every count in one flat tuple: declared .. made_56, then the bands'."""
        return (
            *(getattr(self, n) for n in _COUNTS),
            *self.band_declared,
            *self.band_made,
        )


_COUNTS = tuple(f.name for f in fields(Tally))[2:-2]  # declared .. made_56


def tally_of(team: int, bidder: str, vector: Sequence[int]) -> Tally:
    """The tally whose counts are `vector` (Tally.vector's order)."""
    n, bands = len(_COUNTS), len(BANDS)
    counts = dict(zip(_COUNTS, vector[:n], strict=True))
    return Tally(
        team,
        bidder,
        **counts,
        band_declared=tuple(vector[n : n + bands]),
        band_made=tuple(vector[n + bands : n + 2 * bands]),
    )


@dataclass(frozen=True)
class Band:
    """Contracts of one band of values: declared and made."""

    low: int
    high: int
    declared: int
    made: int

    @property
    def made_percent(self) -> float | None:
        return round(100 * self.made / self.declared, 1) if self.declared else None

    @property
    def label(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}–{self.high}"


@dataclass(frozen=True)
class Figures:
    declared: int
    made: int
    defeated: int
    made_percent: float | None  # None: nothing declared
    average_value: float | None
    doubled: int
    doubled_made: int
    redoubled: int
    redoubled_made: int
    bid_56: int
    made_56: int
    band_declared: tuple[int, ...] = NO_BANDS
    band_made: tuple[int, ...] = NO_BANDS

    @property
    def bands(self) -> tuple[Band, ...]:
        """By the scoring chart's bands of values (made only when asked for: most
        rows never show them)."""
        return tuple(
            Band(low, high, d, m)
            for (low, high), d, m in zip(
                BANDS, self.band_declared, self.band_made, strict=True
            )
        )


def figures_of(tally: Tally) -> Figures:
    """What is shown of a tally: its counts, the contracts defeated, the made
    percentage (one decimal) and the average contract value (two decimals)."""
    declared, made = tally.declared, tally.made
    if not 0 <= made <= declared:
        raise AssertionError(f"{made} made of {declared} declared")
    return Figures(
        declared,
        made,
        declared - made,
        round(100 * made / declared, 1) if declared else None,
        round(tally.value_sum / declared, 2) if declared else None,
        tally.doubled,
        tally.doubled_made,
        tally.redoubled,
        tally.redoubled_made,
        tally.bid_56,
        tally.made_56,
        tally.band_declared,
        tally.band_made,
    )


@dataclass(frozen=True)
class PenaltyCount:
    """Penalties of one kind a team incurred against one opponent, as SQL counts
    them (warnings included: each is a time the team offended)."""

    offender: int  # a team
    opponent: int  # the other team of the match
    kind: PenaltyKind
    count: int


@dataclass(frozen=True)
class MatchScore:
    """A decided match as its sheet stores it."""

    match: int
    stage: str
    round: int
    table: int
    team_a: int
    team_b: int
    total_a: int
    total_b: int
    winner: str  # "A", "B" or "" (a tie)


@dataclass(frozen=True)
class Mark:
    """One team's result in one decided match."""

    match: int
    stage: str
    round: int
    table: int
    team: int
    opponent: int
    total: int
    opponent_total: int
    won: bool

    @property
    def margin(self) -> int:
        return self.total - self.opponent_total


def marks_of(score: MatchScore) -> tuple[Mark, Mark]:
    where = (score.match, score.stage, score.round, score.table)
    return (
        Mark(
            *where,
            score.team_a,
            score.team_b,
            score.total_a,
            score.total_b,
            score.winner == "A",
        ),
        Mark(
            *where,
            score.team_b,
            score.team_a,
            score.total_b,
            score.total_a,
            score.winner == "B",
        ),
    )


@dataclass(frozen=True)
class DealAt:
    """Where a deal was played."""

    match: int
    stage: str
    round: int
    table: int
    number: int


@dataclass(frozen=True)
class Run:
    team: int
    length: int
    first: DealAt
    last: DealAt


def made_runs(deals: Iterable[tuple[int, bool, DealAt]]) -> dict[int, Run]:
    """Each team's longest run of contracts made: `deals` are (declaring team, made,
    where) in the order they were played (stage, round, deal number). A team's
    defeated contract ends its run; the other team's deals between do not. Of equal
    runs, the first reached is kept."""
    best: dict[int, Run] = {}
    current: dict[int, tuple[int, DealAt]] = {}
    for team, made, at in deals:
        if not made:
            current.pop(team, None)
            continue
        length, first = current.get(team, (0, at))
        current[team] = (length + 1, first)
        if length + 1 > (best[team].length if team in best else 0):
            best[team] = Run(team, length + 1, first, at)
    return best


def made_runs_lean(
    deals: Iterable[tuple[int, bool, int, int]],
) -> dict[int, tuple[int, int, int, int, int]]:
    """made_runs on bare rows, for 36,000 deals at a time: (declaring team, made,
    match, deal number) in play order in; {team: (length, first match, first deal,
    last match, last deal)} out, the same runs made_runs finds."""
    best: dict[int, tuple[int, int, int, int, int]] = {}
    current: dict[int, tuple[int, int, int]] = {}
    for team, made, match, number in deals:
        if not made:
            current.pop(team, None)
            continue
        length, first_match, first_number = current.get(team) or (0, match, number)
        length += 1
        current[team] = (length, first_match, first_number)
        if length > best.get(team, (0,))[0]:
            best[team] = (length, first_match, first_number, match, number)
    return best


# A match's share of the runs, stored with its sheet (issue 43)
# ----------------------------------------------------------------------------------
# Each sheet write stores, for each side, what its declared deals add to the runs
# (`run_piece`); the statistics join the pieces in play order (`runs_joined`)
# instead of reading every deal of the tournament. Deal numbers of an empty part are 0.


@dataclass(frozen=True)
class RunPiece:
    """One side's declared deals in one match, as runs of contracts made: `head`
    made from its first declared deal on (all of them when none was defeated),
    `middle` the longest run touching neither end (the first of equals), `tail`
    made up to its last declared deal (0 when that one was defeated); each with the
    numbers of its first and last deals."""

    declared: int = 0
    head: int = 0
    head_first: int = 0
    head_last: int = 0
    middle: int = 0
    middle_first: int = 0
    middle_last: int = 0
    tail: int = 0
    tail_first: int = 0
    tail_last: int = 0

    def as_list(self) -> list[int]:
        return [getattr(self, f.name) for f in fields(self)]

    @property
    def whole(self) -> bool:
        """Every declared deal made: the run goes through the match."""
        return self.declared > 0 and self.head == self.declared


def run_piece(deals: Iterable[tuple[int, bool]]) -> RunPiece:
    """The piece of one side's declared deals of a match: (deal number, made) in
    number order."""
    runs: list[list[int]] = []  # [length, first, last] of each run of made, in order
    declared, current, defeated_at = 0, None, []
    for number, made in deals:
        declared += 1
        if made:
            if current is None:
                current = [0, number, number]
                runs.append(current)
            current[0] += 1
            current[2] = number
        else:
            defeated_at.append(number)
            current = None
    if not declared:
        return RunPiece()
    if not defeated_at:
        length, first, last = runs[0]
        return RunPiece(declared, length, first, last, 0, 0, 0, length, first, last)
    head = runs[0] if runs and runs[0][1] < defeated_at[0] else [0, 0, 0]
    tail = runs[-1] if runs and runs[-1][2] > defeated_at[-1] else [0, 0, 0]
    middle = [0, 0, 0]
    for run in runs:
        if run is not head and run is not tail and run[0] > middle[0]:
            middle = run
    return RunPiece(declared, *head, *middle, *tail)


def runs_joined(
    pieces: Iterable[tuple[int, int, RunPiece]],
) -> dict[int, tuple[int, int, int, int, int]]:
    """made_runs_lean from the matches' pieces instead of their deals: (team, match,
    piece) in play order in; {team: (length, first match, first deal, last match,
    last deal)} out, the same runs, ties to the first reached."""
    best: dict[int, tuple[int, int, int, int, int]] = {}
    current: dict[int, tuple[int, int, int]] = {}
    for team, match, piece in pieces:
        if not piece.declared:
            continue
        longest = best[team][0] if team in best else 0
        if piece.head:
            length, first_match, first_number = current.get(team) or (
                0,
                match,
                piece.head_first,
            )
            length += piece.head
            if piece.whole:
                current[team] = (length, first_match, first_number)
            if length > longest:
                longest = length
                best[team] = (length, first_match, first_number, match, piece.head_last)
            if piece.whole:
                continue
        if piece.middle > longest:
            longest = piece.middle
            best[team] = (
                piece.middle,
                match,
                piece.middle_first,
                match,
                piece.middle_last,
            )
        if piece.tail:
            current[team] = (piece.tail, match, piece.tail_first)
            if piece.tail > longest:
                best[team] = (
                    piece.tail,
                    match,
                    piece.tail_first,
                    match,
                    piece.tail_last,
                )
        else:
            current.pop(team, None)
    return best


# A sheet's stored share beside its contracts (Match.tally), as one flat list of
# counts so a backup's lines stay shallow: side A's run piece, side B's, then each
# side's penalties by kind (PenaltyKind's order). [] for a sheet never written.
SIDES = ("A", "B")
PENALTY_KINDS = tuple(PenaltyKind)
_RUN_WIDTH = len(fields(RunPiece))


def sheet_tally(
    deals: Iterable[tuple[int, str, bool]], penalties: Iterable[tuple[str, str]]
) -> list[int]:
    """Match.tally of a sheet from its deals (number, declaring side, made, as the
    rules found) and its penalties (offending side, kind; warnings included: each
    is a time the side offended)."""
    ordered = sorted(deals)
    tally: list[int] = []
    for side in SIDES:
        tally += run_piece((n, made) for n, d, made in ordered if d == side).as_list()
    counted: dict[str, dict[str, int]] = {side: defaultdict(int) for side in SIDES}
    for offender, kind in penalties:
        counted[offender][kind] += 1
    for side in SIDES:
        tally += [counted[side][kind.value] for kind in PENALTY_KINDS]
    return tally


def sheet_tally_read(
    tally: Sequence[int],
) -> tuple[RunPiece, RunPiece, dict[str, int], dict[str, int]]:
    """sheet_tally read back: each side's run piece and penalties by kind (those
    incurred). An older tally holds PenaltyKind's first kinds: its width says which."""
    w = _RUN_WIDTH
    k = (len(tally) - 2 * w) // 2
    if not 0 < k <= len(PENALTY_KINDS) or len(tally) != 2 * w + 2 * k:
        raise AssertionError(f"a tally of {len(tally)} counts is of no known width")
    kinds = PENALTY_KINDS[:k]
    a, b = tally[:w], tally[w : 2 * w]
    pa, pb = tally[2 * w : 2 * w + k], tally[2 * w + k : 2 * w + 2 * k]
    return (
        RunPiece(*a),
        RunPiece(*b),
        {kind.value: n for kind, n in zip(kinds, pa, strict=True) if n},
        {kind.value: n for kind, n in zip(kinds, pb, strict=True) if n},
    )


@dataclass(frozen=True)
class PlayerStatistics:
    team: int
    player: str
    figures: Figures


@dataclass(frozen=True)
class TeamStatistics:
    team: int
    figures: Figures
    kallakali_caught: int  # kallakali this team proved against its opponents
    kallakali_suffered: int  # this team was caught
    penalties_against: int  # times this team offended
    penalties_against_by_kind: Mapping[str, int]
    biggest_win: Mark | None
    highest_total: Mark | None
    longest_run: Run | None


class RecordKind(StrEnum):
    HIGHEST_MATCH_TOTAL = "highest_match_total"
    BIGGEST_MARGIN = "biggest_margin"
    MOST_56_MADE = "most_56_made"  # by a player
    MOST_56_MADE_TEAM = "most_56_made_team"
    LONGEST_RUN = "longest_run"


RECORD_TITLES = {
    RecordKind.HIGHEST_MATCH_TOTAL: "Highest match total",
    RecordKind.BIGGEST_MARGIN: "Biggest winning margin",
    RecordKind.MOST_56_MADE: "Most 56 contracts made by a player",
    RecordKind.MOST_56_MADE_TEAM: "Most 56 contracts made by a team",
    RecordKind.LONGEST_RUN: "Longest run of contracts made",
}


@dataclass(frozen=True)
class Holder:
    """Who holds a record, and where: a match (a mark), a run of deals, or the
    whole tournament (a player's or a team's count)."""

    team: int
    player: str = ""
    mark: Mark | None = None
    run: Run | None = None


@dataclass(frozen=True)
class Record:
    kind: RecordKind
    value: int
    holders: tuple[Holder, ...]  # every tied holder, up to HOLDERS_MAX
    tied: int  # how many hold it in all

    @property
    def title(self) -> str:
        return RECORD_TITLES[self.kind]


@dataclass(frozen=True)
class Statistics:
    players: tuple[PlayerStatistics, ...]
    teams: tuple[TeamStatistics, ...]
    records: tuple[Record, ...]
    deals: int  # deals counted
    bidders_recorded: int  # of them, with their bidder
    overall: Figures  # every counted contract


def _record(
    kind: RecordKind,
    candidates: Sequence[T],
    value: Callable[[T], int],
    holder: Callable[[T], Holder],
) -> Record | None:
    """The best value of `candidates` and all who reach it, in their order; None
    when nobody has more than 0."""
    best = max(map(value, candidates), default=0)
    if best <= 0:
        return None
    holders = [holder(c) for c in candidates if value(c) == best]
    return Record(kind, best, tuple(holders[:HOLDERS_MAX]), len(holders))


_STAGE_ORDER = {"league": 0, "knockout": 1}


def _order(mark: Mark) -> int:
    return (_STAGE_ORDER.get(mark.stage, 2) * 1000 + mark.round) * 1000 + mark.table


@dataclass(frozen=True)
class TeamPart:
    """One team's share of the statistics, which only its own sheets change (issue
    43): its row, its bidders' rows, its counts for the tournament's totals, and
    what it brings to the records (its marks at its best total and best winning
    margin, of equals every one; its longest run). The tournament's statistics are
    its teams' parts put together (`statistics_assemble`), so a part can be kept
    while the team's sheets do not change."""

    row: TeamStatistics
    players: tuple[PlayerStatistics, ...]
    vector: tuple[int, ...]  # the team's tally, Tally.vector's order
    deals: int
    recorded: int  # of its deals, those with their bidder
    best_totals: tuple[Mark, ...]
    best_margins: tuple[Mark, ...]  # won marks only


def _tops(marks: Iterable[Mark], key) -> tuple[Mark, ...]:  # type: ignore[no-untyped-def]
    """Every mark at the highest key, in play order."""
    best, tops = None, []
    for mark in marks:
        value = key(mark)
        if best is None or value > best:
            best, tops = value, [mark]
        elif value == best:
            tops.append(mark)
    return tuple(sorted(tops, key=_order))


def team_parts(
    *,
    tallies: Iterable[Tally],
    penalties: Iterable[PenaltyCount],
    scores: Iterable[MatchScore],
    runs: Mapping[int, Run],
    teams: Iterable[int],
) -> dict[int, TeamPart]:
    """The parts of `teams` from tallies, penalty counts, decided matches and runs
    that hold at least every one of their sheets (rows of other teams are left
    out); a team that declared nothing has its part of zeros."""
    wanted = set(teams)
    width = len(Tally(0).vector())
    sums: dict[int, list[int]] = {team: [0] * width for team in wanted}
    players: dict[int, list[PlayerStatistics]] = {team: [] for team in wanted}
    deals = dict.fromkeys(wanted, 0)
    recorded = dict.fromkeys(wanted, 0)
    for tally in tallies:
        if tally.team not in wanted:
            continue
        vector = tally.vector()
        sums[tally.team] = list(map(add, sums[tally.team], vector))
        deals[tally.team] += tally.declared
        if tally.bidder:
            recorded[tally.team] += tally.declared
            players[tally.team].append(
                PlayerStatistics(tally.team, tally.bidder, figures_of(tally))
            )

    caught: dict[int, int] = defaultdict(int)
    suffered: dict[int, int] = defaultdict(int)
    against: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for p in penalties:
        if p.offender in wanted:
            against[p.offender][p.kind.value] += p.count
            if p.kind is PenaltyKind.KALLAKALI:
                suffered[p.offender] += p.count
        if p.kind is PenaltyKind.KALLAKALI and p.opponent in wanted:
            caught[p.opponent] += p.count

    marks_by_team: dict[int, list[Mark]] = defaultdict(list)
    for score in scores:
        for mark in marks_of(score):
            if mark.team in wanted:
                marks_by_team[mark.team].append(mark)

    parts = {}
    for team in sorted(wanted):
        marks = marks_by_team.get(team, [])
        won = [m for m in marks if m.won]
        kinds = against.get(team, {})
        best_totals = _tops(marks, lambda m: m.total)
        best_margins = _tops(won, lambda m: m.margin)
        vector = tuple(sums[team])
        row = TeamStatistics(
            team=team,
            figures=figures_of(tally_of(team, "", vector)),
            kallakali_caught=caught.get(team, 0),
            kallakali_suffered=suffered.get(team, 0),
            penalties_against=sum(kinds.values()),
            penalties_against_by_kind={
                k.value: kinds[k.value] for k in PenaltyKind if kinds.get(k.value)
            },
            biggest_win=best_margins[0] if best_margins else None,
            highest_total=best_totals[0] if best_totals else None,
            longest_run=runs.get(team),
        )
        parts[team] = TeamPart(
            row,
            tuple(sorted(players[team], key=lambda p: p.player)),
            vector,
            deals[team],
            recorded[team],
            best_totals,
            best_margins,
        )
    return parts


def statistics_assemble(parts: Iterable[TeamPart]) -> Statistics:
    """The tournament's statistics from every team's part."""
    parts = sorted(parts, key=lambda p: p.row.team)
    width = len(Tally(0).vector())
    overall = [0] * width
    players: list[PlayerStatistics] = []
    deals = recorded = 0
    for part in parts:
        overall = list(map(add, overall, part.vector))
        players += part.players
        deals += part.deals
        recorded += part.recorded
    team_rows = [part.row for part in parts]

    def marks(kind: str) -> list[Mark]:
        found = [m for part in parts for m in getattr(part, kind)]
        return sorted(found, key=lambda m: (_order(m), m.team))

    runs = [t.longest_run for t in team_rows if t.longest_run is not None]
    records = [
        _record(
            RecordKind.HIGHEST_MATCH_TOTAL,
            marks("best_totals"),
            lambda m: m.total,
            lambda m: Holder(m.team, mark=m),
        ),
        _record(
            RecordKind.BIGGEST_MARGIN,
            marks("best_margins"),
            lambda m: m.margin,
            lambda m: Holder(m.team, mark=m),
        ),
        _record(
            RecordKind.MOST_56_MADE,
            players,  # by team, then player
            lambda p: p.figures.made_56,
            lambda p: Holder(p.team, player=p.player),
        ),
        _record(
            RecordKind.MOST_56_MADE_TEAM,
            team_rows,
            lambda t: t.figures.made_56,
            lambda t: Holder(t.team),
        ),
        _record(
            RecordKind.LONGEST_RUN,
            runs,
            lambda r: r.length,
            lambda r: Holder(r.team, run=r),
        ),
    ]
    players.sort(key=lambda p: (-p.figures.declared, -p.figures.made, p.team, p.player))
    return Statistics(
        players=tuple(players),
        teams=tuple(team_rows),
        records=tuple(r for r in records if r is not None),
        deals=deals,
        bidders_recorded=recorded,
        overall=figures_of(tally_of(0, "", overall)),
    )


def statistics_compute(
    *,
    tallies: Iterable[Tally],
    penalties: Iterable[PenaltyCount],
    scores: Iterable[MatchScore],
    runs: Mapping[int, Run],
    teams: Sequence[int],
) -> Statistics:
    """The statistics of a tournament from its tallies, penalty counts, decided
    matches and runs; `teams` are every team of the tournament (those that declared
    nothing have their row of zeros)."""
    tallies, scores = list(tallies), list(scores)
    everyone = set(teams) | {t.team for t in tallies}
    everyone |= {s.team_a for s in scores} | {s.team_b for s in scores}
    return statistics_assemble(
        team_parts(
            tallies=tallies,
            penalties=penalties,
            scores=scores,
            runs=runs,
            teams=everyone,
        ).values()
    )


# Sorting the tables (the page sorts by a column without JavaScript)
# ----------------------------------------------------------------------------------


class SortKey(StrEnum):
    NAME = "name"
    DECLARED = "declared"
    MADE = "made"
    DEFEATED = "defeated"
    MADE_PERCENT = "made_percent"
    AVERAGE_VALUE = "average_value"
    DOUBLED_MADE = "doubled_made"
    REDOUBLED_MADE = "redoubled_made"
    MADE_56 = "made_56"


@dataclass(frozen=True)
class Sorting:
    key: SortKey = SortKey.DECLARED
    descending: bool = True
    tiebreak: tuple[SortKey, ...] = field(
        default=(SortKey.DECLARED, SortKey.MADE, SortKey.NAME)
    )


class Row(Protocol):
    """A player's or a team's row: anything with its figures."""

    @property
    def figures(self) -> Figures: ...


R = TypeVar("R", bound=Row)
Value = str | int | float | None


def rows_sorted(
    rows: Iterable[R], sorting: Sorting, name_of: Callable[[R], str]
) -> list[R]:
    """Player or team rows by one column, then by contracts declared, made and
    name; a row without the figure (nothing declared) goes last either way."""

    def value(row: R, key: SortKey) -> Value:
        if key is SortKey.NAME:
            return name_of(row).casefold()
        found: Value = getattr(row.figures, key.value)
        return found

    def by(key: SortKey) -> Callable[[R], str | int | float]:
        def get(row: R) -> str | int | float:
            found = value(row, key)
            return 0 if found is None else found  # only the rows set apart below

        return get

    ordered = list(rows)
    # Stable sorts, the least significant first.
    for key in reversed(sorting.tiebreak):
        ordered.sort(key=by(key), reverse=key is not SortKey.NAME)
    present = [r for r in ordered if value(r, sorting.key) is not None]
    absent = [r for r in ordered if value(r, sorting.key) is None]
    present.sort(key=by(sorting.key), reverse=sorting.descending)
    return present + absent
