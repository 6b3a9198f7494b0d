"""Who played a match (tournament/domain/roster.py): RULES §9, "Who played a forfeited
match": only the team that came played."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournament.domain.roster import roster_played

NAMES = st.lists(st.text(min_size=1, max_size=12), max_size=6)


@given(NAMES, st.sampled_from(["A", "B"]), st.sampled_from(["", "A", "B", "both"]))
def test_only_the_team_that_came_played(roster, side, absent):
    played = roster_played(roster, side, absent)
    if absent in (side, "both"):
        assert played == []
    else:
        assert played == roster
        assert played is not roster  # a copy: the caller's list is never shared
