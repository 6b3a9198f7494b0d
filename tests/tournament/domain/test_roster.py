"""Who played a match (tournament/domain/roster.py): RULES §9, "Who played a forfeited
match": only the team that came played."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournament.domain.roster import Swap, roster_at, roster_now, roster_played
from tournament.domain.types import RoundStage

NAMES = st.lists(st.text(min_size=1, max_size=12), max_size=6)


@given(NAMES, st.sampled_from(["A", "B"]), st.sampled_from(["", "A", "B", "both"]))
def test_only_the_team_that_came_played(roster, side, absent):
    played = roster_played(roster, side, absent)
    if absent in (side, "both"):
        assert played == []
    else:
        assert played == roster
        assert played is not roster  # a copy: the caller's list is never shared


# The roster as it is now (the team page's players)
# ----------------------------------------------------------------------------------

LEAGUE = RoundStage.LEAGUE


def test_a_swap_typed_in_another_case_replaces_the_player():
    """The issue's case: "anil kumar" typed for "Anil Kumar" replaces him."""
    swap = Swap(1, "anil kumar", "Biju Paul", LEAGUE, 3)
    now = roster_now(["Anil Kumar", "Sunil", "Ravi"], [swap])
    assert now == [("Biju Paul", swap), ("Sunil", None), ("Ravi", None)]


def test_swaps_apply_in_the_order_approved_whatever_their_round():
    first = Swap(1, "Sunil", "Mohan", LEAGUE, 5)
    second = Swap(2, "MOHAN", "Tom", RoundStage.KNOCKOUT, 1)
    now = roster_now(["Anil", "Sunil"], [second, first])
    assert now == [("Anil", None), ("Tom", second)]


@given(
    st.lists(
        st.text(alphabet="abcAB", min_size=1, max_size=3),
        min_size=1,
        max_size=5,
        unique_by=str.casefold,
    ),
    st.lists(st.tuples(st.integers(0, 4), st.integers(1, 8)), max_size=4),
)
def test_now_is_the_roster_of_a_round_after_every_swap(players, picks):
    """roster_now agrees with roster_at at a round after every swap: one rule."""
    roster = list(players)
    swaps = []
    for number, (index, from_round) in enumerate(picks, start=1):
        out = roster[index % len(roster)]
        into = f"new{number}"
        swaps.append(Swap(number, out.upper(), into, LEAGUE, from_round))
        roster[index % len(roster)] = into
    now = roster_now(players, swaps)
    assert [name for name, _ in now] == roster_at(players, swaps, LEAGUE, 8)
    assert [name for name, _ in now] == roster
    for (name, swap), registered in zip(now, players, strict=True):
        assert (swap is None) == (name == registered)
