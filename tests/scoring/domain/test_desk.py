"""The tournament day at a glance (scoring/domain/desk.py): every status and dispute
count, the late rule, the current round and the screen's views."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.domain.desk import (
    LATE_MINUTES,
    Advice,
    RoundMark,
    TableState,
    current_round,
    desk_advice,
    next_round,
    screen_plan,
    screen_views,
    table_late,
    table_state,
)
from scoring.domain.rules import MatchStatus

EXPECTED = {
    (MatchStatus.SCHEDULED, False): TableState.NOT_STARTED,
    (MatchStatus.IN_PROGRESS, False): TableState.IN_PROGRESS,
    (MatchStatus.COMPLETED, False): TableState.AWAITING,
    (MatchStatus.CONFIRMED, False): TableState.CONFIRMED,
    (MatchStatus.VOID, False): TableState.CONFIRMED,
    (MatchStatus.FORFEITED, False): TableState.FORFEITED,
    (MatchStatus.SCHEDULED, True): TableState.DISPUTED,
    (MatchStatus.IN_PROGRESS, True): TableState.DISPUTED,
    (MatchStatus.COMPLETED, True): TableState.DISPUTED,
    (MatchStatus.CONFIRMED, True): TableState.CONFIRMED,
    (MatchStatus.VOID, True): TableState.CONFIRMED,
    (MatchStatus.FORFEITED, True): TableState.FORFEITED,
}


@pytest.mark.parametrize(("status", "disputed"), list(EXPECTED))
def test_every_status_with_and_without_an_open_dispute(status, disputed):
    for count in (1, 2, 7) if disputed else (0,):
        assert table_state(status, count) == EXPECTED[(status, disputed)]
        assert table_state(status.value, count) == EXPECTED[(status, disputed)]


def test_every_state_has_its_words_and_the_desk_lists_them_in_order():
    from django.utils import translation

    from scoring.words import said

    with translation.override("en"):
        words = [said(s.value, "table") for s in TableState]
    assert words == [
        "not started",
        "in progress",
        "disputed",
        "awaiting confirmation",
        "confirmed",
        "forfeited",
    ]


@pytest.mark.parametrize("state", list(TableState))
@pytest.mark.parametrize("idle", [None, 0, LATE_MINUTES - 0.1, LATE_MINUTES, 90])
def test_only_a_table_still_to_play_is_late_and_only_after_the_limit(state, idle):
    playing = state in (TableState.NOT_STARTED, TableState.IN_PROGRESS)
    expected = playing and idle is not None and idle >= LATE_MINUTES
    assert table_late(state, idle) is expected
    assert table_late(state, idle, late_after=1000) is False


def mark(number, released=True, tables=4, final=0, stage="league"):
    return RoundMark(stage, number, released, tables, final)


def test_the_current_round_is_the_first_released_with_a_table_to_play():
    rounds = [mark(1, final=4), mark(2, final=3), mark(3), mark(4, released=False)]
    assert current_round(rounds) == rounds[1]
    assert next_round(rounds, rounds[1]) == rounds[2]
    assert next_round(rounds, rounds[2]) is None  # round 4 is a draft


def test_when_every_released_round_is_final_the_last_one_stays_up():
    rounds = [mark(1, final=4), mark(2, final=4), mark(3, released=False)]
    assert current_round(rounds) == rounds[1]
    assert next_round(rounds, rounds[1]) is None


def test_no_round_before_a_release_and_the_knockout_after_the_league():
    assert current_round([mark(1, released=False)]) is None
    assert current_round([]) is None
    assert next_round([mark(1)], None) is None
    rounds = [mark(1, final=4), mark(1, tables=8, stage="knockout")]
    assert current_round(rounds) == rounds[1]


@given(
    st.lists(
        st.tuples(st.booleans(), st.integers(0, 6), st.integers(0, 6)),
        max_size=12,
    )
)
def test_the_current_round_is_released_and_nothing_before_it_is_left_to_play(rows):
    rounds = [
        mark(n, released=r, tables=t, final=min(f, t))
        for n, (r, t, f) in enumerate(rows, start=1)
    ]
    current = current_round(rounds)
    playable = [r for r in rounds if r.released and r.tables]
    if not playable:
        assert current is None
        return
    assert current in playable
    before = playable[: playable.index(current)]
    assert all(r.done for r in before)
    if current.done:
        assert current == playable[-1]
    following = next_round(rounds, current)
    assert following is None or (
        following in playable and following.number > current.number
    )


@given(st.integers(0, 600), st.integers(1, 40))
def test_the_screen_views_hold_every_table_once_evenly(tables, per_view):
    views = screen_views(tables, per_view)
    shown = list(itertools.chain.from_iterable(views))
    assert shown == list(range(tables))
    assert all(len(v) <= per_view for v in views)
    if views:
        assert len(views) == -(-tables // per_view)  # as few views as possible
        sizes = {len(v) for v in views}
        assert max(sizes) - min(sizes) <= 1  # and no lonely remainder


def test_a_view_holds_at_least_one_table():
    with pytest.raises(ValueError, match="at least one"):
        screen_views(3, 0)


def test_the_screen_turns_through_the_pairings_then_the_standings():
    played = RoundMark("league", 1, True, 30, 10, 12)
    plan = screen_plan([played], played, 24)
    assert [(v.kind, v.tables, v.part, v.parts, v.byes) for v in plan] == [
        ("pairings", range(0, 15), 1, 2, False),
        ("pairings", range(15, 30), 2, 2, True),
        ("standings", range(0), 0, 0, False),
    ]
    fresh = mark(1, tables=3)
    assert [v.kind for v in screen_plan([fresh], fresh, 24)] == ["pairings"]
    assert [v.kind for v in screen_plan([], None, 24)] == ["waiting"]


def _mark(stage="league", tables=2, decided=0, final=0):
    return RoundMark(stage, 1, True, tables, final, decided)


@pytest.mark.parametrize(
    ("current", "next_draft", "status", "expected"),
    [
        (None, None, "registration", Advice.DRAW),
        (None, 1, "league", Advice.RELEASE_FIRST),  # issue 41: not "draw"
        (_mark(decided=1), 2, "league", Advice.PLAYING),
        (_mark(decided=2, final=1), 2, "league", Advice.CONFIRMING),
        (_mark(decided=2, final=2), 2, "league", Advice.RELEASE_NEXT),
        (_mark(decided=2, final=2), None, "league", Advice.SEED),
        (_mark("knockout", 1), None, "knockout", Advice.PLAYING),
        (_mark("knockout", 1, 1, 1), None, "knockout", Advice.KNOCKOUT_NEXT),
        (_mark("knockout", 1, 1, 1), None, "finished", Advice.FINISHED),
    ],
)
def test_the_desk_advice_follows_every_state_of_the_day(
    current, next_draft, status, expected
):
    assert desk_advice(current, next_draft=next_draft, status=status) is expected


@given(
    st.one_of(
        st.none(),
        st.builds(
            lambda stage, tables, decided, final: _mark(
                stage, tables, max(decided, final), final
            ),
            st.sampled_from(["league", "knockout"]),
            st.integers(1, 40),
            st.integers(0, 40),
            st.integers(0, 40),
        ).filter(lambda m: m.decided <= m.tables),
    ),
    st.one_of(st.none(), st.integers(1, 50)),
    st.sampled_from(["registration", "league", "knockout", "finished"]),
)
def test_a_drawn_round_waiting_is_never_advised_as_a_draw(current, next_draft, status):
    advice = desk_advice(current, next_draft=next_draft, status=status)
    if next_draft is not None:
        assert advice is not Advice.DRAW
    if current is not None and not current.done and status != "finished":
        assert advice in (Advice.PLAYING, Advice.CONFIRMING)


@given(st.integers(1, 600), st.integers(1, 30), st.integers(1, 60))
def test_the_screen_pages_through_every_team_of_the_standings(teams, per_view, tables):
    """Issue 41: the screen showed the top 12 of 48 teams. Its standings views cover
    every team once, in order, none holding more than `per_view`."""
    played = RoundMark("league", 1, True, tables, tables, tables)
    plan = screen_plan([played], played, 24, teams=teams, rows_per_view=per_view)
    views = [v for v in plan if v.kind == "standings"]
    assert views, "a league result counts: the standings show"
    shown = [i for v in views for i in v.rows]
    assert shown == list(range(teams))
    assert all(len(v.rows) <= per_view for v in views)
    assert [(v.part, v.parts) for v in views] == [
        (n, len(views)) for n in range(1, len(views) + 1)
    ]


# The knockout's end of the day on the screen (issue 52)
# ----------------------------------------------------------------------------------


def _bracket(champion=None, columns=()):
    from scoring.domain.desk import Podium, ScreenBracket

    return ScreenBracket(tuple(columns), Podium(champion=champion))


def test_the_screen_shows_the_bracket_then_the_champion_and_rests_on_it():
    league = _mark(stage="league", tables=4, decided=4, final=4)
    final_round = _mark(stage="knockout", tables=3, decided=2, final=2)
    kinds = lambda **kw: [  # noqa: E731
        v.kind for v in screen_plan([league, final_round], final_round, 24, **kw)
    ]
    # Seeded: the round's tables, the bracket, and the league's standings.
    assert kinds(teams=8, bracket=_bracket()) == ["pairings", "bracket", "standings"]
    # The final decided: the champion first, the standings gone.
    decided = _bracket(champion="Alpha")
    assert kinds(teams=8, bracket=decided) == ["champion", "pairings", "bracket"]
    # Every knockout match decided: the champion alone.
    assert kinds(teams=8, bracket=decided, finished=True) == ["champion"]
    # A finished league without a knockout keeps its standings.
    assert kinds(teams=8, finished=True) == ["pairings", "standings"]


@given(st.integers(min_value=1, max_value=24))
def test_a_pairings_view_uses_both_columns_from_seven_tables(tables):
    from scoring.domain.desk import pairings_grid

    columns, rows = pairings_grid(tables)
    assert columns * rows >= tables  # every table has a cell
    assert rows <= 12
    if tables > 6:
        assert columns == 2 and rows == max(6, -(-tables // 2))
    else:
        assert (columns, rows) == (1, 6)
    assert pairings_grid(12) == (2, 6)  # 6 and 6, not 12 down the left half


def test_the_bracket_view_starts_at_a_round_that_fits_the_screen():
    from scoring.domain.desk import (
        BracketColumn,
        BracketMatch,
        BracketSide,
        bracket_shown,
    )

    def column(n):
        match = BracketMatch(BracketSide(None), BracketSide(None))
        return BracketColumn(f"{n} matches", (match,) * n)

    sizes = [32, 16, 8, 4, 2, 1, 1]
    shown = bracket_shown([column(n) for n in sizes])
    assert [len(c.matches) for c in shown] == [8, 4, 2, 1, 1]
    assert [len(c.matches) for c in bracket_shown([column(12)])] == [12]
