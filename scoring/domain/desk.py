"""The tournament day at a glance: which round is being played, where each table of it
stands, which tables are late, and how a round's pairings are split over the views of
a venue screen, and which views it turns through as the knockout fills its bracket
and ends the day on its champion.

It does not score or rank (rules.py, standings.py); it reads statuses and times the
selectors hand it. Vocabulary: a *table* is one match of a round, named by its table
number; the *current round* is the round the hall is playing now; a table is *late*
when nothing has been entered on it for longer than the organizer expects between two
deals (or since the round was released, before its first deal).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from tournament.domain.errors import Words

from .rules import MatchStatus, Stage

# Minutes without an entry after which a table is shown as late: a deal of 56 takes
# 5 to 8 minutes at a championship table, so two deals' time with nothing entered
# means the scorer has stopped entering, or the table has stopped playing.
LATE_MINUTES = 15


class TableState(StrEnum):
    """Where one table stands, in the order the desk lists the states."""

    NOT_STARTED = "not_started"
    IN_PROGRESS = "in_progress"
    DISPUTED = "disputed"  # an open dispute, whatever the sheet's status
    AWAITING = "awaiting"  # every deal entered, waiting for the confirmation
    CONFIRMED = "confirmed"
    FORFEITED = "forfeited"


def table_state(status: MatchStatus | str, open_disputes: int) -> TableState:
    """The desk's state of a sheet: an open dispute shows above anything but a
    forfeit or a confirmed sheet (which cannot have one open)."""
    status = MatchStatus(status)
    if status == MatchStatus.FORFEITED:
        return TableState.FORFEITED
    if status in (MatchStatus.CONFIRMED, MatchStatus.VOID):
        return TableState.CONFIRMED
    if open_disputes:
        return TableState.DISPUTED
    if status == MatchStatus.COMPLETED:
        return TableState.AWAITING
    if status == MatchStatus.IN_PROGRESS:
        return TableState.IN_PROGRESS
    return TableState.NOT_STARTED


def table_late(
    state: TableState, minutes_idle: float | None, *, late_after: int = LATE_MINUTES
) -> bool:
    """Whether the desk should point at this table: playing (or due to start) with
    nothing entered for `late_after` minutes. `minutes_idle` counts from the last
    entry, or from the round's release before the first one; None when unknown."""
    if state not in (TableState.NOT_STARTED, TableState.IN_PROGRESS):
        return False
    return minutes_idle is not None and minutes_idle >= late_after


@dataclass(frozen=True)
class RoundMark:
    """One round as far as "which is current" needs it."""

    stage: str
    number: int
    released: bool
    tables: int  # matches in it
    final: int  # of which final (FINAL_STATUSES); a void sheet is not counted
    decided: int = 0  # with a result that counts: completed or final
    released_at: datetime | None = None  # a drawn league round's release

    @property
    def done(self) -> bool:
        return self.tables > 0 and self.final == self.tables


def current_round(rounds: Sequence[RoundMark]) -> RoundMark | None:
    """The round the hall plays now: the first released round with a table not yet
    final; when every released round is final, the last released one (the results
    stay up until the next is released). None before any round is released. Rounds
    come in playing order (league before knockout, by number)."""
    released = [r for r in rounds if r.released and r.tables]
    for mark in released:
        if not mark.done:
            return mark
    return released[-1] if released else None


class Advice(StrEnum):
    """What the desk tells the people at it to do next, from the state of the day."""

    DRAW = "draw"  # nothing drawn or set up: draw the league
    RELEASE_FIRST = "release_first"  # the league is drawn, every round a draft
    PLAYING = "playing"  # the current round has tables without a result
    CONFIRMING = "confirming"  # every table has a result; some wait for confirmation
    RELEASE_NEXT = "release_next"  # the current round is final; a draft round waits
    SEED = "seed"  # the league is final, the knockout not seeded
    KNOCKOUT_NEXT = "knockout_next"  # a knockout round is final; the next one opens
    FINISHED = "finished"  # every knockout match is decided


def desk_advice(
    current: RoundMark | None, *, next_draft: int | None, status: str
) -> Advice:
    """The desk's advice for the day as it stands: `current` the round the hall plays
    (current_round), `next_draft` the next league round drawn and not released, and
    `status` the tournament's (registration, league, knockout, finished)."""
    if status == "finished":
        return Advice.FINISHED
    if current is None:
        return Advice.RELEASE_FIRST if next_draft is not None else Advice.DRAW
    if not current.done:
        if current.decided >= current.tables:
            return Advice.CONFIRMING
        return Advice.PLAYING
    if next_draft is not None:
        return Advice.RELEASE_NEXT
    if current.stage == Stage.LEAGUE and status != "knockout":
        return Advice.SEED
    return Advice.KNOCKOUT_NEXT


def next_round(
    rounds: Sequence[RoundMark], current: RoundMark | None
) -> RoundMark | None:
    """The released round after `current`, if one is released already."""
    if current is None:
        return None
    index = list(rounds).index(current)
    following = [r for r in rounds[index + 1 :] if r.released and r.tables]
    return following[0] if following else None


def screen_views(tables: int, per_view: int) -> list[range]:
    """The table positions (0-based) of each view of a round's pairings: as few views
    as hold them all, as even as possible, so that no view is a lonely remainder."""
    if tables <= 0:
        return []
    if per_view < 1:
        raise ValueError("a view holds at least one table")
    views = -(-tables // per_view)
    size, extra = divmod(tables, views)
    out, start = [], 0
    for i in range(views):
        end = start + size + (1 if i < extra else 0)
        out.append(range(start, end))
        start = end
    return out


@dataclass(frozen=True)
class ScreenView:
    """One view of the venue screen."""

    # "pairings", "standings", "bracket", "champion" (the podium, once the final is
    # decided), or "waiting" (no round released yet)
    kind: str
    tables: range = range(0)  # positions of the round's tables shown, by table
    part: int = 0  # 1-based among the views of its kind
    parts: int = 0
    byes: bool = False  # the round's byes are shown here (on its last pairings view)
    rows: range = range(0)  # positions (0-based) of the standings' rows shown


# The knockout as the screen shows it: plain values the bracket hands over (the
# bracket's app is above scoring, so it answers scoring's signal with these).


@dataclass(frozen=True)
class BracketSide:
    """One place of a knockout match: its team once known."""

    name: str | None  # None while the team is not known
    seed: int | None = None
    score: int | None = None  # its total, or in a series the games it won
    won: bool = False


@dataclass(frozen=True)
class BracketMatch:
    a: BracketSide
    b: BracketSide
    best_of: int = 1
    decided: bool = False  # a winner moved on
    provisional: bool = False  # a result shown is not confirmed yet
    forfeit: bool = False


@dataclass(frozen=True)
class BracketColumn:
    """One round of the bracket: its name (rounds.py) and its matches, top down."""

    name: Words
    matches: tuple[BracketMatch, ...]


@dataclass(frozen=True)
class Podium:
    """Who finishes where, as far as the results go (rules.md §6)."""

    champion: str | None = None
    runner_up: str | None = None
    second_runner_up: str | None = None
    third_runner_up: str | None = None


@dataclass(frozen=True)
class ScreenBracket:
    """The knockout for the screen: every round in order, the podium, and the own
    name of each sheet of the final's round ("Final, game 2", "Second runner-up
    match"), by the sheet's id."""

    columns: tuple[BracketColumn, ...]
    podium: Podium
    sheet_names: Mapping[int, Words] = field(default_factory=dict)

    @property
    def final_decided(self) -> bool:
        return self.podium.champion is not None


# A column of more matches than this does not fit the screen's height beside the
# others; its round is on the pairings views while it is played.
BRACKET_MATCHES_SHOWN = 8


def bracket_shown(
    columns: Sequence[BracketColumn], most: int = BRACKET_MATCHES_SHOWN
) -> list[BracketColumn]:
    """The rounds the screen's bracket view shows: from the first round of at most
    `most` matches on (a bracket of 64 shows the round of 16 on), always the last."""
    for index, column in enumerate(columns):
        if len(column.matches) <= most:
            return list(columns[index:])
    return list(columns[-1:])


def pairings_grid(tables: int) -> tuple[int, int]:
    """(columns, rows) of a pairings view of `tables` tables on a wide screen: up to
    6 in one column across the screen; more in two columns, filled top to bottom,
    of at least 6 rows, so that 12 tables stand 6 and 6 (not 12 down the left half).
    """
    if tables <= 6:
        return 1, 6
    return 2, max(6, -(-tables // 2))


def screen_plan(
    rounds: Sequence[RoundMark],
    current: RoundMark | None,
    per_view: int,
    *,
    teams: int = 0,
    rows_per_view: int = 12,
    bracket: ScreenBracket | None = None,
    finished: bool = False,
) -> list[ScreenView]:
    """The views the venue screen turns through: the current round's pairings over
    as few even views as hold them (screen_views), the bracket once the knockout is
    seeded, then, once a league result counts, the standings of every one of the
    `teams` the same way, `rows_per_view` at most a view: the whole league, not only
    its top.

    Once the final is decided the league is behind: the champion (with the podium)
    comes first, then what is still played of the final's round, then the bracket,
    and the standings no longer. When the tournament is `finished` (every knockout
    match decided) the champion is the one view: the screen rests on it."""
    decided = bracket is not None and bracket.final_decided
    if decided and finished:
        return [ScreenView("champion")]
    views = [ScreenView("champion")] if decided else []
    parts = screen_views(current.tables, per_view) if current is not None else []
    views += [
        ScreenView("pairings", part, n, len(parts), n == len(parts))
        for n, part in enumerate(parts, start=1)
    ]
    if bracket is not None:
        views.append(ScreenView("bracket"))
    if not decided and any(r.stage == Stage.LEAGUE and r.decided for r in rounds):
        pages = screen_views(teams, rows_per_view)
        views += [
            ScreenView("standings", part=n, parts=len(pages), rows=rows)
            for n, rows in enumerate(pages, start=1)
        ] or [ScreenView("standings")]
    return views or [ScreenView("waiting")]


# What a table's link reaches (docs/links.md)
# ----------------------------------------------------------------------------------

STAGE_ORDER = tuple(s.value for s in Stage)
RoundKey = tuple[str, int]  # (stage, number)


def round_order(key: RoundKey) -> tuple[int, int]:
    """Playing order of rounds: the league before the knockout, then by number."""
    return STAGE_ORDER.index(key[0]), key[1]


def latest_round(released: Sequence[RoundKey]) -> RoundKey | None:
    """The latest released round: the one a table plays now or played last."""
    return max(released, key=round_order, default=None)


@dataclass(frozen=True)
class TableSheet:
    """One sheet played at a table, as its link sees it."""

    key: int  # the match's id
    stage: str
    number: int  # the round
    status: str


# The sheets a table link may still enter: nothing is final about them.
OPEN_STATUSES = frozenset(
    {MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS, MatchStatus.COMPLETED}
)
# The sheets a table is playing: not every deal is in yet.
PLAYING_STATUSES = frozenset({MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS})


def table_reach(
    released: Sequence[RoundKey], sheets: Sequence[TableSheet]
) -> tuple[TableSheet | None, list[TableSheet]]:
    """The sheets of one table that its link opens, in released rounds only.

    The current one is the sheet the table is playing now: its latest sheet still
    being played (scheduled or in progress), whatever later rounds have opened at
    other tables (a quarter-final still played when a semi-final has begun); when
    none is being played, its sheet of the latest released round (None when the
    table has no match there; the latest of them, as the games of the final's
    series follow each other at one table). The others are its sheets not yet final
    (confirmed, forfeited or void), in playing order. A round not yet released
    reaches nothing."""
    latest = latest_round(released)
    if latest is None:
        return None, []
    rounds = set(released)
    reached = [
        s
        for s in sheets
        if (s.stage, s.number) in rounds and s.status != MatchStatus.VOID
    ]
    playing = [s for s in reached if s.status in PLAYING_STATUSES]
    if playing:
        current: TableSheet | None = max(playing, key=_sheet_order)
    else:
        # The latest of them: a table plays the final's games one after another.
        current = max(
            (s for s in reached if (s.stage, s.number) == latest),
            key=_sheet_order,
            default=None,
        )
    earlier = sorted(
        (s for s in reached if s is not current and s.status in OPEN_STATUSES),
        key=_sheet_order,
    )
    return current, earlier


def _sheet_order(sheet: TableSheet) -> tuple[tuple[int, int], int]:
    return round_order((sheet.stage, sheet.number)), sheet.key
