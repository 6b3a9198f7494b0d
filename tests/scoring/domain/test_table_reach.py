"""What a table's link reaches (scoring/domain/desk.py, `table_reach`;
docs/links.md): the sheet the table plays now (its latest sheet still being played,
else its sheet of the latest released round), and its other sheets still open; every
status, and hypothesis over any pattern of rounds."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.domain.desk import (
    OPEN_STATUSES,
    PLAYING_STATUSES,
    TableSheet,
    latest_round,
    round_order,
    table_reach,
)
from scoring.domain.rules import MatchStatus

L, K = "league", "knockout"


def test_nothing_before_a_round_is_released():
    assert table_reach([], [TableSheet(1, L, 1, MatchStatus.SCHEDULED)]) == (None, [])


def test_the_knockout_comes_after_every_league_round():
    assert latest_round([(L, 8), (K, 1), (L, 3)]) == (K, 1)
    assert latest_round([(L, 2), (L, 10)]) == (L, 10)
    assert round_order((L, 99)) < round_order((K, 1))


@pytest.mark.parametrize("status", list(MatchStatus))
def test_every_status_of_an_earlier_sheet(status):
    earlier = TableSheet(1, L, 1, status)
    now = TableSheet(2, L, 2, MatchStatus.SCHEDULED)
    current, open_ = table_reach([(L, 1), (L, 2)], [earlier, now])
    assert current == now
    assert open_ == ([earlier] if status in OPEN_STATUSES else [])


@pytest.mark.parametrize("status", list(MatchStatus))
def test_the_current_sheet_is_opened_whatever_its_status_but_void(status):
    now = TableSheet(2, L, 2, status)
    current, _ = table_reach([(L, 2)], [now])
    assert current == (None if status == MatchStatus.VOID else now)


def test_a_table_without_a_match_in_the_latest_round():
    earlier = TableSheet(1, L, 1, MatchStatus.COMPLETED)
    assert table_reach([(L, 1), (K, 1)], [earlier]) == (None, [earlier])


def test_a_round_not_released_reaches_nothing():
    released = TableSheet(1, L, 1, MatchStatus.IN_PROGRESS)
    draft = TableSheet(2, L, 2, MatchStatus.SCHEDULED)
    assert table_reach([(L, 1)], [released, draft]) == (released, [])


def test_a_knockout_match_still_played_stays_current_when_a_later_round_opens():
    """A quarter-final at table 3 goes on while the semi-finals have begun at other
    tables: table 3's link still opens its quarter-final (issue 38)."""
    quarter = TableSheet(7, K, 1, MatchStatus.IN_PROGRESS)
    league = TableSheet(3, L, 8, MatchStatus.COMPLETED)
    current, others = table_reach([(L, 8), (K, 1), (K, 2)], [league, quarter])
    assert current == quarter
    assert others == [league]


def test_a_sheet_with_every_deal_in_waits_while_the_next_round_is_played():
    waiting = TableSheet(1, L, 3, MatchStatus.COMPLETED)
    next_one = TableSheet(2, L, 4, MatchStatus.SCHEDULED)
    assert table_reach([(L, 3), (L, 4)], [waiting, next_one]) == (next_one, [waiting])


def test_the_latest_sheet_being_played_is_current_and_an_older_one_is_listed():
    forgotten = TableSheet(1, L, 3, MatchStatus.IN_PROGRESS)
    now = TableSheet(2, L, 4, MatchStatus.IN_PROGRESS)
    assert table_reach([(L, 3), (L, 4)], [now, forgotten]) == (now, [forgotten])


def test_the_finals_games_follow_each_other_at_one_table():
    """rules.md §6: game 2 at game 1's table; once it has every deal in (completed,
    waiting for its confirmation) the link still opens game 2, not game 1."""
    game_1 = TableSheet(11, K, 5, MatchStatus.CONFIRMED)
    game_2 = TableSheet(12, K, 5, MatchStatus.SCHEDULED)
    assert table_reach([(K, 5)], [game_1, game_2]) == (game_2, [])
    game_2 = TableSheet(12, K, 5, MatchStatus.COMPLETED)
    assert table_reach([(K, 5)], [game_1, game_2]) == (game_2, [])
    game_3 = TableSheet(13, K, 5, MatchStatus.SCHEDULED)
    game_2 = TableSheet(12, K, 5, MatchStatus.CONFIRMED)
    assert table_reach([(K, 5)], [game_1, game_2, game_3]) == (game_3, [])


ROUNDS = st.tuples(st.sampled_from([L, K]), st.integers(1, 6))


def order(sheet):
    return round_order((sheet.stage, sheet.number)), sheet.key


@given(
    released=st.lists(ROUNDS, max_size=8, unique=True),
    sheets=st.lists(
        st.tuples(ROUNDS, st.sampled_from(list(MatchStatus))), max_size=10
    ).map(
        lambda rows: [
            TableSheet(n, stage, number, status)
            for n, ((stage, number), status) in enumerate(rows)
        ]
    ),
)
def test_a_link_reaches_released_sheets_only_and_in_playing_order(released, sheets):
    current, earlier = table_reach(released, sheets)
    latest = latest_round(released)
    reached = [s for s in (current, *earlier) if s is not None]
    assert len({s.key for s in reached}) == len(reached)
    for sheet in reached:
        assert (sheet.stage, sheet.number) in released
        assert sheet.status != MatchStatus.VOID
    playing = [
        s
        for s in sheets
        if s.status in PLAYING_STATUSES and (s.stage, s.number) in released
    ]
    if playing:
        # The table's latest sheet still being played, whatever else is open.
        assert current == max(playing, key=order)
    elif current is not None:
        assert (current.stage, current.number) == latest
        # The latest sheet of that round.
        assert current == max(
            (s for s in sheets if (s.stage, s.number) == latest and s.status != "void"),
            key=order,
        )
    for sheet in earlier:
        assert sheet.status in OPEN_STATUSES
    assert earlier == sorted(earlier, key=order)
    # Nothing open and released is left out.
    missed = [
        s
        for s in sheets
        if s.status in OPEN_STATUSES
        and (s.stage, s.number) in released
        and s not in reached
    ]
    assert missed == []
