"""Every model of scoring, named here so that Django finds them and `scoring.models`
names each: this module only re-exports (docs/architecture.md). The score sheets
(`sheets.py`), the league and the desk's lines (`league.py`), the workbook's export
jobs (`exports.py`) and the ratings stored (`ratings.py`)."""

from .exports import (
    EXPORT_UNSENT,
    ExportJob,
    ExportStatus,
)
from .league import (
    Announcement,
    Bye,
    LeagueDraw,
    LeagueRound,
    StandingsLot,
)
from .ratings import (
    PersonRating,
    RatedGame,
    RatingStep,
    RebuildQueue,
    RebuildWanted,
)
from .sheets import (
    AWARDING,
    MATCH_STATUS_CHOICES,
    SIDE_CHOICES,
    SIDES,
    STAGE_CHOICES,
    WARNED,
    Deal,
    Dispute,
    HistoryIsWritten,
    HistoryQuerySet,
    Match,
    MatchTally,
    Penalty,
    SheetAction,
    SheetChange,
)

__all__ = [
    "AWARDING",
    "EXPORT_UNSENT",
    "MATCH_STATUS_CHOICES",
    "SIDES",
    "SIDE_CHOICES",
    "STAGE_CHOICES",
    "WARNED",
    "Announcement",
    "Bye",
    "Deal",
    "Dispute",
    "ExportJob",
    "ExportStatus",
    "HistoryIsWritten",
    "HistoryQuerySet",
    "LeagueDraw",
    "LeagueRound",
    "Match",
    "MatchTally",
    "Penalty",
    "PersonRating",
    "RatedGame",
    "RatingStep",
    "RebuildQueue",
    "RebuildWanted",
    "SheetAction",
    "SheetChange",
    "StandingsLot",
]
