"""The rules of the statistics (scoring/domain/statistics.py), by example and by
hypothesis against plain second readings."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.domain import statistics as stats
from scoring.domain.rules import PenaltyKind

AT = stats.DealAt(1, "league", 1, 1, 1)


def _tally(team, bidder="", declared=0, made=0, **counts):
    return stats.Tally(team, bidder, declared, made, **counts)


def test_figures_by_example():
    f = stats.figures_of(_tally(1, "Anil", 3, 2, value_sum=128))
    assert (f.declared, f.made, f.defeated, f.made_percent, f.average_value) == (
        3,
        2,
        1,
        66.7,
        42.67,
    )
    none = stats.figures_of(_tally(1))
    assert (none.made_percent, none.average_value, none.defeated) == (None, None, 0)


def test_a_tally_cannot_make_more_than_it_declared():
    try:
        stats.figures_of(_tally(1, declared=1, made=2))
    except AssertionError:
        return
    raise AssertionError("accepted 2 made of 1 declared")


def test_runs_by_example():
    deals = [
        (1, True, stats.DealAt(1, "league", 1, 1, 1)),
        (2, False, stats.DealAt(1, "league", 1, 1, 2)),  # the other team's
        (1, True, stats.DealAt(1, "league", 1, 1, 3)),
        (1, False, stats.DealAt(1, "league", 1, 1, 4)),
        (1, True, stats.DealAt(2, "league", 2, 3, 1)),
        (1, True, stats.DealAt(2, "league", 2, 3, 2)),
    ]
    runs = stats.made_runs(deals)
    # Two runs of 2: the first reached is kept.
    assert (runs[1].length, runs[1].first.number, runs[1].last.number) == (2, 1, 3)
    assert 2 not in runs  # it made nothing


def _runs_oracle(deals):
    by_team = defaultdict(list)
    for team, made, _ in deals:
        by_team[team].append(made)
    best = {}
    for team, flags in by_team.items():
        length = longest = 0
        for made in flags:
            length = length + 1 if made else 0
            longest = max(longest, length)
        if longest:
            best[team] = longest
    return best


@given(st.lists(st.tuples(st.integers(1, 4), st.booleans()), max_size=80))
def test_runs_agree_with_a_plain_reading(flags):
    deals = [
        (team, made, stats.DealAt(i, "league", 1, 1, i))
        for i, (team, made) in enumerate(flags)
    ]
    runs = stats.made_runs(deals)
    assert {t: r.length for t, r in runs.items()} == _runs_oracle(deals)
    # The lean reading the selector uses finds the same runs.
    lean = stats.made_runs_lean((t, m, at.match, at.number) for t, m, at in deals)
    assert lean == {
        t: (r.length, r.first.match, r.first.number, r.last.match, r.last.number)
        for t, r in runs.items()
    }
    for run in runs.values():
        # first and last are deals of that team, made, with the run between them.
        assert run.first.number <= run.last.number
        own = [d for d in deals if d[0] == run.team]
        span = [d for d in own if run.first.number <= d[2].number <= run.last.number]
        assert len(span) == run.length and all(d[1] for d in span)


tallies = st.builds(
    lambda team, bidder, declared, made_share, value_sum: _tally(
        team,
        bidder,
        declared,
        min(declared, made_share),
        value_sum=value_sum,
        bid_56=min(declared, made_share),
        made_56=min(declared, made_share) // 2,
    ),
    st.integers(1, 5),
    st.sampled_from(["", "Anil", "Biju", "Chacko"]),
    st.integers(0, 20),
    st.integers(0, 20),
    st.integers(0, 1000),
)
penalties = st.builds(
    lambda offender, step, kind, count: stats.PenaltyCount(
        offender, (offender + step - 1) % 5 + 1, kind, count
    ),
    st.integers(1, 5),
    st.integers(1, 4),  # the opponent: another of the five teams
    st.sampled_from(list(PenaltyKind)),
    st.integers(1, 4),
)
scores = st.builds(
    lambda match, a, b, ta, tb: stats.MatchScore(
        match,
        "league",
        1,
        match,
        a,
        b,
        ta,
        tb,
        "A" if ta > tb else "B" if tb > ta else "",
    ),
    st.integers(1, 50),
    st.integers(1, 3),
    st.integers(4, 5),
    st.integers(0, 40),
    st.integers(0, 40),
)


@given(
    st.lists(tallies, max_size=30, unique_by=lambda t: (t.team, t.bidder)),
    st.lists(penalties, max_size=20),
    st.lists(scores, max_size=15, unique_by=lambda s: s.match),
)
def test_statistics_add_up(tallies_, penalties_, scores_):
    found = stats.statistics_compute(
        tallies=tallies_,
        penalties=penalties_,
        scores=scores_,
        runs={},
        teams=[1, 2, 3, 4, 5],
    )
    # Every team has its row; a team's figures are the sum of its tallies.
    assert [t.team for t in found.teams] == [1, 2, 3, 4, 5]
    for row in found.teams:
        own = [t for t in tallies_ if t.team == row.team]
        assert row.figures.declared == sum(t.declared for t in own)
        assert row.figures.made == sum(t.made for t in own)
        assert row.figures.made_56 == sum(t.made_56 for t in own)
    assert found.deals == sum(t.declared for t in tallies_)
    assert found.bidders_recorded == sum(t.declared for t in tallies_ if t.bidder)
    assert {(p.team, p.player) for p in found.players} == {
        (t.team, t.bidder) for t in tallies_ if t.bidder
    }
    # A kallakali caught by one team is one suffered by another.
    kallakali = sum(p.count for p in penalties_ if p.kind is PenaltyKind.KALLAKALI)
    assert sum(t.kallakali_caught for t in found.teams) == kallakali
    assert sum(t.kallakali_suffered for t in found.teams) == kallakali
    assert sum(t.penalties_against for t in found.teams) == sum(
        p.count for p in penalties_
    )
    # Records: the best value, every holder reaching it.
    records = {r.kind: r for r in found.records}
    totals = [s.total_a for s in scores_] + [s.total_b for s in scores_]
    if max(totals, default=0) > 0:
        record = records[stats.RecordKind.HIGHEST_MATCH_TOTAL]
        assert record.value == max(totals)
        assert record.tied == totals.count(max(totals))
        assert all(h.mark.total == record.value for h in record.holders)
    else:
        assert stats.RecordKind.HIGHEST_MATCH_TOTAL not in records
    margins = [abs(s.total_a - s.total_b) for s in scores_ if s.winner]
    if margins:
        assert records[stats.RecordKind.BIGGEST_MARGIN].value == max(margins)
    for row in found.teams:
        won = [
            abs(s.total_a - s.total_b)
            for s in scores_
            if (s.winner == "A" and s.team_a == row.team)
            or (s.winner == "B" and s.team_b == row.team)
        ]
        assert (row.biggest_win.margin if row.biggest_win else None) == (
            max(won) if won else None
        )


def test_a_record_names_every_tied_holder_up_to_ten():
    scores_ = [
        stats.MatchScore(m, "league", 1, m, 2 * m, 2 * m + 1, 20, 10, "A")
        for m in range(1, 13)
    ]
    found = stats.statistics_compute(
        tallies=[], penalties=[], scores=scores_, runs={}, teams=[]
    )
    margin = {r.kind: r for r in found.records}[stats.RecordKind.BIGGEST_MARGIN]
    assert (margin.value, margin.tied, len(margin.holders)) == (10, 12, 10)
    # In the order played: the first tables first.
    assert [h.mark.match for h in margin.holders] == list(range(1, 11))


@given(
    st.lists(tallies, max_size=20),
    st.sampled_from(list(stats.SortKey)),
    st.booleans(),
)
def test_rows_sort_by_any_column_with_the_empty_last(tallies_, key, descending):
    rows = [
        stats.PlayerStatistics(t.team, t.bidder, stats.figures_of(t)) for t in tallies_
    ]
    got = stats.rows_sorted(rows, stats.Sorting(key, descending), lambda r: r.player)
    assert sorted(map(id, got)) == sorted(map(id, rows))

    def value(row):
        if key is stats.SortKey.NAME:
            return row.player.casefold()
        return getattr(row.figures, key.value)

    values = [value(r) for r in got]
    present = [v for v in values if v is not None]
    assert values[: len(present)] == present  # the rows without it come last
    assert present == sorted(present, reverse=descending)


def test_bands_follow_the_scoring_chart():
    assert stats.BANDS == ((28, 39), (40, 47), (48, 55), (56, 56))
    f = stats.figures_of(
        _tally(
            1, declared=2, made=1, band_declared=(1, 0, 0, 1), band_made=(0, 0, 0, 1)
        )
    )
    assert [(b.label, b.made_percent) for b in f.bands] == [
        ("28–39", 0.0),
        ("40–47", None),
        ("48–55", None),
        ("56", 100.0),
    ]


def _pieces(deals):
    """(team, made, match, number) in play order, cut into each match's pieces."""
    by_side: dict[tuple[int, int], list[tuple[int, bool]]] = defaultdict(list)
    order: list[tuple[int, int]] = []
    for team, made, match, number in deals:
        if (match, team) not in by_side:
            order.append((match, team))
        by_side[match, team].append((number, made))
    return [
        (team, match, stats.run_piece(by_side[match, team])) for match, team in order
    ]


def test_a_piece_by_example():
    piece = stats.run_piece([(1, True), (3, True), (4, False), (6, True), (7, True)])
    assert piece == stats.RunPiece(5, 2, 1, 3, 0, 0, 0, 2, 6, 7)
    middle = stats.run_piece([(1, False), (2, True), (5, False), (6, True), (8, True)])
    assert (middle.head, middle.middle, middle.middle_first, middle.tail) == (
        0,
        1,
        2,
        2,
    )
    whole = stats.run_piece([(2, True), (9, True)])
    assert whole.whole and (whole.head, whole.tail, whole.head_last) == (2, 2, 9)
    assert stats.run_piece([]) == stats.RunPiece()


@given(
    st.lists(
        st.tuples(st.integers(1, 3), st.booleans(), st.integers(1, 4)),
        max_size=120,
    )
)
def test_runs_joined_from_pieces_are_the_runs_of_the_deals(rows):
    """Matches in play order, each with the deals of its two teams interleaved:
    the pieces, joined, find exactly the runs that the deals one by one find."""
    deals, match, number = [], 0, 0
    for team, made, step in rows:
        if step == 4:  # the next match
            match, number = match + 1, 0
        number += 1
        deals.append((team, made, match, number))
    assert stats.runs_joined(_pieces(deals)) == stats.made_runs_lean(deals)


# The statistics as they were computed before teams' parts (issue 43), whole: the
# second reading that the parts, put together, must agree with.
def _record_before(kind, candidates):
    best, holders = 0, []
    for value, holder in candidates:
        if value > best:
            best, holders = value, [holder]
        elif value == best and best > 0:
            holders.append(holder)
    if best <= 0:
        return None
    return stats.Record(kind, best, tuple(holders[: stats.HOLDERS_MAX]), len(holders))


def _best(marks, key):
    if not marks:
        return None
    return max(marks, key=lambda m: (key(m), -stats._order(m)))


def _compute_before(
    *,
    tallies: Iterable[stats.Tally],
    penalties: Iterable[stats.PenaltyCount],
    scores: Iterable[stats.MatchScore],
    runs: Mapping[int, stats.Run],
    teams: Sequence[int],
) -> stats.Statistics:
    width = len(stats.Tally(0).vector())
    sums: dict[int, list[int]] = {team: [0] * width for team in teams}
    overall = [0] * width
    players: list[stats.PlayerStatistics] = []
    deals = recorded = 0
    for tally in tallies:
        mine = sums.setdefault(tally.team, [0] * width)
        for i, count in enumerate(tally.vector()):
            mine[i] += count
            overall[i] += count
        deals += tally.declared
        if tally.bidder:
            recorded += tally.declared
            players.append(
                stats.PlayerStatistics(
                    tally.team, tally.bidder, stats.figures_of(tally)
                )
            )
    by_team = {team: stats.tally_of(team, "", vector) for team, vector in sums.items()}

    caught: dict[int, int] = defaultdict(int)
    suffered: dict[int, int] = defaultdict(int)
    against: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for p in penalties:
        against[p.offender][p.kind.value] += p.count
        if p.kind is stats.PenaltyKind.KALLAKALI:
            suffered[p.offender] += p.count
            caught[p.opponent] += p.count

    marks_by_team: dict[int, list[stats.Mark]] = defaultdict(list)
    for score in scores:
        for mark in stats.marks_of(score):
            marks_by_team[mark.team].append(mark)

    team_rows = []
    for team in sorted(by_team):
        marks = marks_by_team.get(team, [])
        kinds = against.get(team, {})
        team_rows.append(
            stats.TeamStatistics(
                team=team,
                figures=stats.figures_of(by_team[team]),
                kallakali_caught=caught.get(team, 0),
                kallakali_suffered=suffered.get(team, 0),
                penalties_against=sum(kinds.values()),
                penalties_against_by_kind={
                    k.value: kinds[k.value]
                    for k in stats.PenaltyKind
                    if kinds.get(k.value)
                },
                biggest_win=_best([m for m in marks if m.won], lambda m: m.margin),
                highest_total=_best(marks, lambda m: m.total),
                longest_run=runs.get(team),
            )
        )

    all_marks = sorted(
        (m for ms in marks_by_team.values() for m in ms),
        key=lambda m: (stats._order(m), m.team),
    )
    records = [
        _record_before(
            stats.RecordKind.HIGHEST_MATCH_TOTAL,
            ((m.total, stats.Holder(m.team, mark=m)) for m in all_marks),
        ),
        _record_before(
            stats.RecordKind.BIGGEST_MARGIN,
            ((m.margin, stats.Holder(m.team, mark=m)) for m in all_marks if m.won),
        ),
        _record_before(
            stats.RecordKind.MOST_56_MADE,
            (
                (p.figures.made_56, stats.Holder(p.team, player=p.player))
                for p in sorted(players, key=lambda p: (p.team, p.player))
            ),
        ),
        _record_before(
            stats.RecordKind.MOST_56_MADE_TEAM,
            ((t.figures.made_56, stats.Holder(t.team)) for t in team_rows),
        ),
        _record_before(
            stats.RecordKind.LONGEST_RUN,
            (
                (run.length, stats.Holder(run.team, run=run))
                for run in sorted(runs.values(), key=lambda r: (r.team,))
            ),
        ),
    ]
    players.sort(key=lambda p: (-p.figures.declared, -p.figures.made, p.team, p.player))
    return stats.Statistics(
        players=tuple(players),
        teams=tuple(team_rows),
        records=tuple(r for r in records if r is not None),
        deals=deals,
        bidders_recorded=recorded,
        overall=stats.figures_of(stats.tally_of(0, "", overall)),
    )


runs_of = st.dictionaries(
    st.integers(1, 5),
    st.builds(
        lambda team, length, a, b: stats.Run(
            team,
            length,
            stats.DealAt(a, "league", 1, a, 1),
            stats.DealAt(b, "league", 2, b, 3),
        ),
        st.just(0),
        st.integers(1, 30),
        st.integers(1, 50),
        st.integers(1, 50),
    ),
    max_size=5,
).map(lambda d: {t: stats.Run(t, r.length, r.first, r.last) for t, r in d.items()})


@given(
    st.lists(tallies, max_size=30, unique_by=lambda t: (t.team, t.bidder)),
    st.lists(penalties, max_size=20),
    st.lists(scores, max_size=15, unique_by=lambda s: s.match),
    runs_of,
    st.sets(st.integers(1, 5)),
)
def test_parts_put_together_are_the_statistics_computed_whole(
    tallies_, penalties_, scores_, runs, some
):
    """Every team's part computed apart (from every row, or from only its own
    sheets' rows), then put together, is what the whole computation finds."""
    teams = [1, 2, 3, 4, 5]
    whole = _compute_before(
        tallies=tallies_, penalties=penalties_, scores=scores_, runs=runs, teams=teams
    )
    assert (
        stats.statistics_compute(
            tallies=tallies_,
            penalties=penalties_,
            scores=scores_,
            runs=runs,
            teams=teams,
        )
        == whole
    )
    # The parts of `some` teams from their own rows only, the others' from all.
    mine = stats.team_parts(
        tallies=[t for t in tallies_ if t.team in some],
        penalties=[p for p in penalties_ if {p.offender, p.opponent} & some],
        scores=[s for s in scores_ if {s.team_a, s.team_b} & some],
        runs={t: r for t, r in runs.items() if t in some},
        teams=some,
    )
    theirs = stats.team_parts(
        tallies=tallies_,
        penalties=penalties_,
        scores=scores_,
        runs=runs,
        teams=set(teams) - some,
    )
    assert stats.statistics_assemble([*mine.values(), *theirs.values()]) == whole


@given(
    st.lists(
        st.tuples(st.integers(1, 40), st.sampled_from("AB"), st.booleans()),
        unique_by=lambda d: d[0],
        max_size=30,
    ),
    st.lists(
        st.tuples(
            st.sampled_from("AB"), st.sampled_from([k.value for k in PenaltyKind])
        ),
        max_size=10,
    ),
)
def test_a_sheets_stored_tally_reads_back_as_its_pieces_and_penalties(deals, marks):
    """Match.tally's flat list, read back: each side's run piece of its own deals
    in number order, and its penalties counted by kind."""
    a, b, by_a, by_b = stats.sheet_tally_read(stats.sheet_tally(deals, marks))
    for side, piece, kinds in (("A", a, by_a), ("B", b, by_b)):
        own = sorted((n, made) for n, d, made in deals if d == side)
        assert piece == stats.run_piece(own)
        counted = defaultdict(int)
        for offender, kind in marks:
            if offender == side:
                counted[kind] += 1
        assert kinds == dict(counted)


def test_a_tally_stored_before_the_new_kinds_reads_back_the_same():
    """A tally written before release 0.4 counted five kinds a side (PenaltyKind's
    first five); it reads back as it was, and a tally of no known width is refused."""
    deals = [(1, "A", True), (2, "B", False)]
    marks = [("A", "out_of_turn"), ("B", "kallakali"), ("B", "conduct")]
    now = stats.sheet_tally(deals, marks)
    w = (len(now) - 2 * 7) // 2  # a run piece's width: two, then 7 kinds a side
    old = now[: 2 * w + 5] + now[2 * w + 7 : 2 * w + 12]
    assert stats.sheet_tally_read(old) == stats.sheet_tally_read(now)
    with pytest.raises(AssertionError):
        stats.sheet_tally_read(now[:-1])
