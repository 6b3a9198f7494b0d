"""Score sheets: a match between two teams, its deals, its penalties, what each adds to
the statistics, its history and its disputes.

The rules that SQL can hold are named constraints. Two it cannot are kept by the
services under a lock of the match row: a deal number within what the match allows
(the match's `deals_scheduled` is on another row), and the stored awards and totals,
which are recomputed by scoring/domain/rules.py on every write.
"""

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext

from tournament.models import Team, Tournament, someone

from ..domain.auction import TEXT_MAX as AUCTION_TEXT_MAX
from ..domain.forfeits import Absent
from ..domain.rules import (
    AWARD_PENALTY,
    AWARDING_KINDS,
    CONDUCT_MOST,
    DEAL_NUMBER_MAX,
    FINAL_STATUSES,
    POINTS_IN_DEAL,
    TRUMP_SYMBOLS,
    VALUE_MAX,
    VALUE_MIN,
    WARNED_KINDS,
    Edition,
    Level,
    MatchStatus,
    PenaltyKind,
    Sheet,
    Side,
    Stage,
    Trump,
)
from ..domain.tiebreak import Phase, Toss, decided_by_deals
from ..words import PENALTY_WORDS, change_summary
from ..words import choices as _choices

SIDES = [s.value for s in Side]
AWARDING = [k.value for k in sorted(AWARDING_KINDS)]
WARNED = [k.value for k in sorted(WARNED_KINDS)]


STAGE_CHOICES = _choices(Stage)
MATCH_STATUS_CHOICES = _choices(MatchStatus)
SIDE_CHOICES = [(s, s) for s in SIDES]


class Match(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="matches"
    )
    stage = models.CharField(max_length=10, choices=STAGE_CHOICES, default=Stage.LEAGUE)
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    team_a = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="+")
    team_b = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="+")
    deals_scheduled = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Empty only in the tables format."
    )
    status = models.CharField(
        max_length=12, choices=MATCH_STATUS_CHOICES, default=MatchStatus.SCHEDULED
    )
    version = models.PositiveIntegerField(default=1)
    # The sheet's result, recomputed from the rows on every write (rules.score_sheet).
    total_a = models.IntegerField(default=0)
    total_b = models.IntegerField(default=0)
    deals_won_a = models.PositiveSmallIntegerField(default=0)
    deals_won_b = models.PositiveSmallIntegerField(default=0)
    winner = models.CharField(max_length=1, blank=True, default="")
    # Knockout only: where the tie-break stands (scoring/domain/tiebreak.py), and the
    # toss, when the totals were still equal after the two extra deals (rules.md §6).
    tiebreak = models.CharField(max_length=12, blank=True, default="")
    toss_winner = models.CharField(max_length=1, blank=True, default="")
    first_dealer = models.CharField(max_length=1, blank=True, default="")
    # The sheet version each captain confirmed; equal to `version` on both: locked.
    confirmed_a_version = models.PositiveIntegerField(null=True, blank=True)
    confirmed_b_version = models.PositiveIntegerField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = someone()
    # A forfeit (rules.md §9): who did not come, and why; the sheet is then locked
    # with status `forfeited`, totals 0 and the present team as the winner.
    forfeit_absent = models.CharField(
        max_length=4,
        blank=True,
        default="",
        choices=[(a.value, a.value) for a in Absent],
    )
    forfeit_reason = models.CharField(max_length=300, blank=True, default="")
    # Disputes raised and not yet ruled on (kept with the disputes, under the match's
    # lock): while any is open the sheet cannot be confirmed (rules.md §9).
    open_disputes = models.PositiveSmallIntegerField(default=0)
    # What the sheet adds to the statistics beside its contracts (MatchTally), stored
    # by every sheet write with its totals, as one flat list of counts (a backup's
    # lines stay shallow): side A's run piece, side B's (statistics.RunPiece, 10
    # each), then each side's penalties by kind (PenaltyKind's order: 5 kinds each
    # before release 0.4, 7 since); [] for a sheet never written
    # (statistics.sheet_tally, which reads both).
    tally = models.JSONField(default=list, blank=True)
    # The edition of the penalty rules this sheet is scored by (rules.Edition): a
    # sheet with penalties from before release 0.4 keeps the first, so an upgrade
    # never changes a result already on it (docs/rules.md, "Editions").
    rules_edition = models.PositiveSmallIntegerField(default=Edition.CURRENT)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "matches"
        ordering = ["tournament", "stage", "round", "table"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(team_a=F("team_b")), name="scoring_match_teams_differ"
            ),
            models.CheckConstraint(
                condition=Q(stage__in=[s.value for s in Stage]),
                name="scoring_match_stage_known",
            ),
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in MatchStatus]),
                name="scoring_match_status_known",
            ),
            models.CheckConstraint(
                condition=Q(round__gte=1) & Q(table__gte=1),
                name="scoring_match_round_table_positive",
            ),
            models.CheckConstraint(
                condition=Q(deals_scheduled__isnull=True)
                | Q(deals_scheduled__gte=1, deals_scheduled__lte=DEAL_NUMBER_MAX),
                name="scoring_match_deals_scheduled_1_99",
            ),
            models.CheckConstraint(
                condition=Q(version__gte=1), name="scoring_match_version_positive"
            ),
            models.CheckConstraint(
                condition=Q(rules_edition__in=[e.value for e in Edition]),
                name="scoring_match_rules_edition_known",
            ),
            models.CheckConstraint(
                condition=Q(winner__in=["", *SIDES]), name="scoring_match_winner_known"
            ),
            models.CheckConstraint(
                condition=Q(winner="")
                | Q(
                    status__in=[
                        MatchStatus.COMPLETED,
                        MatchStatus.CONFIRMED,
                        MatchStatus.VOID,
                        MatchStatus.FORFEITED,
                    ]
                ),
                name="scoring_match_winner_only_when_complete",
            ),
            models.CheckConstraint(
                # rules.md §9: forfeited exactly when the absent team is named, with
                # a reason, totals of 0 and the present team as the winner.
                condition=Q(
                    status=MatchStatus.FORFEITED,
                    total_a=0,
                    total_b=0,
                    deals_won_a=0,
                    deals_won_b=0,
                )
                & ~Q(forfeit_reason="")
                & (
                    Q(forfeit_absent=Absent.A, winner=Side.B)
                    | Q(forfeit_absent=Absent.B, winner=Side.A)
                    | Q(forfeit_absent=Absent.BOTH, winner="", stage=Stage.LEAGUE)
                )
                | (
                    ~Q(status=MatchStatus.FORFEITED)
                    & Q(forfeit_absent="", forfeit_reason="")
                ),
                name="scoring_match_forfeit_whole",
            ),
            models.CheckConstraint(
                condition=Q(status=MatchStatus.CONFIRMED, confirmed_at__isnull=False)
                | (~Q(status=MatchStatus.CONFIRMED) & Q(confirmed_at__isnull=True)),
                name="scoring_match_confirmed_when_locked",
            ),
            # A league table plays one match a round. A knockout table plays one
            # sheet at a time: the games of the final's series follow each other at
            # the first game's table (rules.md §6), and a sheet opened after a reset
            # takes the table of the one it replaces, which stays void there.
            models.UniqueConstraint(
                fields=["tournament", "round", "table"],
                condition=Q(stage=Stage.LEAGUE),
                name="scoring_match_table_once_per_league_round",
            ),
            models.UniqueConstraint(
                fields=["tournament", "round", "table"],
                condition=Q(
                    stage=Stage.KNOCKOUT,
                    status__in=[
                        MatchStatus.SCHEDULED,
                        MatchStatus.IN_PROGRESS,
                        MatchStatus.COMPLETED,
                    ],
                ),
                name="scoring_match_table_one_open_sheet_per_knockout_round",
            ),
            models.CheckConstraint(
                condition=Q(tiebreak="")
                | Q(stage=Stage.KNOCKOUT, tiebreak__in=[p.value for p in Phase]),
                name="scoring_match_tiebreak_knockout_only",
            ),
            models.CheckConstraint(
                condition=Q(toss_winner="", first_dealer="")
                | Q(
                    stage=Stage.KNOCKOUT,
                    toss_winner__in=SIDES,
                    first_dealer__in=SIDES,
                ),
                name="scoring_match_toss_whole_in_knockout",
            ),
        ]

    # The sheet as the last write in this process computed it (not stored): lets an
    # answer show running totals without reading the rows again.
    sheet: Sheet | None = None

    def __str__(self) -> str:
        # In the language of the request that names it: a page's (a refusal that
        # names the match), English for the API, the workbooks and the logs.
        return gettext("%(a)s v %(b)s (round %(round)s, table %(table)s)") % {
            "a": self.team_a,
            "b": self.team_b,
            "round": self.round,
            "table": self.table,
        }

    @property
    def locked(self) -> bool:
        return self.status in (
            MatchStatus.CONFIRMED,
            MatchStatus.VOID,
            MatchStatus.FORFEITED,
        )

    @property
    def final(self) -> bool:
        """Confirmed or forfeited: the result stands (rules.md §9)."""
        return self.status in FINAL_STATUSES

    @property
    def forfeit(self) -> dict[str, str] | None:
        if not self.forfeit_absent:
            return None
        return {"absent": self.forfeit_absent, "reason": self.forfeit_reason}

    @property
    def tiebreak_decided_by(self) -> str | None:
        """What decided a decided knockout sheet: total, extra_deals or
        sudden_death (the deals on the sheet tell); None otherwise."""
        if self.tiebreak != Phase.DECIDED or self.deals_scheduled is None:
            return None
        played = self.deals_won_a + self.deals_won_b
        return decided_by_deals(played, self.deals_scheduled).value

    @property
    def toss(self) -> Toss | None:
        if not self.toss_winner:
            return None
        return Toss(winner=Side(self.toss_winner), first_dealer=Side(self.first_dealer))

    def team(self, side: str) -> Team:
        return self.team_a if side == Side.A else self.team_b


class Deal(models.Model):
    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="deals")
    number = models.PositiveSmallIntegerField()
    declarer = models.CharField(max_length=1, choices=SIDE_CHOICES)
    value = models.PositiveSmallIntegerField()
    trump = models.CharField(max_length=10, choices=_choices(Trump))
    level = models.CharField(max_length=10, choices=_choices(Level))
    taken = models.PositiveSmallIntegerField()
    bidder = models.CharField(
        max_length=80,
        blank=True,
        default="",
        help_text="The declaring team's player who won the auction, if recorded.",
    )
    auction = models.CharField(
        max_length=AUCTION_TEXT_MAX,
        blank=True,
        default="",
        help_text="The auction in the notation of docs/auction.md, if recorded; it "
        "ends on the deal's contract.",
    )
    # What the deal gives, recomputed on every write of the sheet.
    made = models.BooleanField()
    award_to = models.CharField(max_length=1)
    award = models.PositiveSmallIntegerField()
    awarded_by = models.CharField(
        max_length=20, blank=True, default="", help_text="The penalty that gave it."
    )
    entered_by = someone()
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "number"], name="scoring_deal_number_once"
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=DEAL_NUMBER_MAX),
                name="scoring_deal_number_1_99",
            ),
            models.CheckConstraint(
                condition=Q(value__gte=VALUE_MIN, value__lte=VALUE_MAX),
                name="scoring_deal_value_28_56",
            ),
            models.CheckConstraint(
                condition=Q(taken__gte=0, taken__lte=POINTS_IN_DEAL),
                name="scoring_deal_taken_0_56",
            ),
            models.CheckConstraint(
                condition=Q(declarer__in=SIDES), name="scoring_deal_declarer_known"
            ),
            models.CheckConstraint(
                condition=Q(trump__in=[t.value for t in Trump]),
                name="scoring_deal_trump_known",
            ),
            models.CheckConstraint(
                condition=Q(level__in=[lv.value for lv in Level]),
                name="scoring_deal_level_known",
            ),
            models.CheckConstraint(
                condition=Q(award_to__in=SIDES), name="scoring_deal_award_to_known"
            ),
            models.CheckConstraint(
                # Exactly one team receives points for a scored deal (rules.md §2).
                condition=Q(award__gte=1),
                name="scoring_deal_award_positive",
            ),
            models.CheckConstraint(
                condition=Q(awarded_by__in=["", *AWARDING]),
                name="scoring_deal_awarded_by_known",
            ),
        ]

    def __str__(self) -> str:
        return f"deal {self.number}: {self.contract}"

    def record(self) -> dict:
        """What the deal records and gives, as the history and the API show it."""
        return {
            "number": self.number,
            "declarer": self.declarer,
            "value": self.value,
            "trump": self.trump,
            "level": self.level,
            "taken": self.taken,
            "made": self.made,
            "award_to": self.award_to,
            "award": self.award,
            "awarded_by": self.awarded_by,
            # Only when recorded: the history of sheets before bidders stays as it was.
            **({"bidder": self.bidder} if self.bidder else {}),
            **({"auction": self.auction} if self.auction else {}),
        }

    @property
    def awarded_by_label(self) -> object:
        """The penalty that gave the deal away, in the page's language (a lazy
        string: it is said when the page is rendered)."""
        return PENALTY_WORDS.get(self.awarded_by, self.awarded_by)

    @property
    def contract(self) -> str:
        level = {Level.DOUBLED: " ×", Level.REDOUBLED: " ××"}.get(Level(self.level), "")
        return f"{self.value} {TRUMP_SYMBOLS[Trump(self.trump)]}{level}"


class Penalty(models.Model):
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="penalties")
    offender = models.CharField(max_length=1, choices=SIDE_CHOICES)
    kind = models.CharField(max_length=20, choices=_choices(PenaltyKind))
    # What it gives the team that did not offend, recomputed on every write (a
    # warning depends on the team's earlier offences in the match).
    points = models.PositiveSmallIntegerField()
    warning = models.BooleanField(default=False)
    note = models.CharField(max_length=300, blank=True)
    entered_by = someone()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "penalties"
        ordering = ["deal__number", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(offender__in=SIDES), name="scoring_penalty_offender_known"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=[k.value for k in PenaltyKind]),
                name="scoring_penalty_kind_known",
            ),
            models.CheckConstraint(
                # rules.md §3: a warning is 0, a later out_of_turn or lead out of
                # turn 1; a review 1; the awarding kinds 3 besides the deal; conduct
                # 0 to the most any rule set allows (the rule set's own most is the
                # service's to hold: it is on the tournament's row).
                condition=Q(kind__in=WARNED, warning=True, points=0)
                | Q(kind__in=WARNED, warning=False, points=1)
                | Q(kind=PenaltyKind.REVIEW, warning=False, points=1)
                | Q(kind__in=AWARDING, warning=False, points=AWARD_PENALTY)
                | Q(
                    kind=PenaltyKind.CONDUCT,
                    warning=False,
                    points__gte=0,
                    points__lte=CONDUCT_MOST,
                ),
                name="scoring_penalty_points_by_kind",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} by {self.offender} in deal {self.deal.number}"

    @property
    def award_to(self) -> str:
        return Side(self.offender).other.value

    def record(self, deal_number: int) -> dict:
        """The penalty as the history and the API show it (`deal` is its number)."""
        return {
            "id": self.pk,
            "deal": deal_number,
            "offender": self.offender,
            "kind": self.kind,
            "points": self.points,
            "warning": self.warning,
            "note": self.note,
        }


class MatchTally(models.Model):
    """One side's contracts with one bidder in one match, counted as the statistics
    count them (docs/statistics.md): stored by every sheet write from its deals
    (scoring/sheets/locking.py: tallies_store), so the statistics sum one row per
    match, side and bidder instead of reading every deal. Derived: a backup leaves
    it out and a restore counts it again."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="tallies")
    side = models.CharField(max_length=1, choices=SIDE_CHOICES)
    bidder = models.CharField(max_length=80, blank=True, default="")
    declared = models.PositiveIntegerField()
    made = models.PositiveIntegerField()
    value_sum = models.PositiveIntegerField()
    doubled = models.PositiveIntegerField()
    doubled_made = models.PositiveIntegerField()
    redoubled = models.PositiveIntegerField()
    redoubled_made = models.PositiveIntegerField()
    bid_56 = models.PositiveIntegerField()
    made_56 = models.PositiveIntegerField()
    band_1 = models.PositiveIntegerField()  # declared in each band of the chart
    band_2 = models.PositiveIntegerField()
    band_3 = models.PositiveIntegerField()
    band_4 = models.PositiveIntegerField()
    band_1_made = models.PositiveIntegerField()
    band_2_made = models.PositiveIntegerField()
    band_3_made = models.PositiveIntegerField()
    band_4_made = models.PositiveIntegerField()

    class Meta:
        verbose_name_plural = "match tallies"
        constraints = [
            models.UniqueConstraint(
                fields=["match", "side", "bidder"], name="scoring_matchtally_one_row"
            ),
            models.CheckConstraint(
                condition=Q(side__in=SIDES), name="scoring_matchtally_side_known"
            ),
            models.CheckConstraint(
                condition=Q(declared__gte=1)
                & Q(made__lte=F("declared"))
                & Q(doubled_made__lte=F("doubled"))
                & Q(redoubled_made__lte=F("redoubled"))
                & Q(made_56__lte=F("bid_56")),
                name="scoring_matchtally_made_of_declared",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} {self.side} {self.bidder or '-'}: {self.declared}"


class SheetAction(models.TextChoices):
    MATCH_CREATE = "match_create"
    DEAL_ADD = "deal_add"
    DEAL_REPLACE = "deal_replace"
    DEAL_DELETE = "deal_delete"
    PENALTY_ADD = "penalty_add"
    PENALTY_DELETE = "penalty_delete"
    CONFIRM = "confirm"
    LOCK = "lock"
    REOPEN = "reopen"
    TOSS = "toss"
    TOSS_DELETE = "toss_delete"
    VOID = "void"
    RESTORE = "restore"
    FORFEIT = "forfeit"
    DISPUTE = "dispute"
    RULING = "ruling"


class HistoryIsWritten(Exception):
    """A sheet's history is appended to, never edited (docs/security.md). Only the
    `match_create` row of a match never scored goes, with its match (a redraw before
    any result); a restore from a backup replaces the history wholesale."""


class HistoryQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise HistoryIsWritten("the history is kept as written")

    def delete(self):
        if self.exclude(action="match_create").exists():
            raise HistoryIsWritten(
                "the history of a scored sheet is kept; only an unscored match's "
                "creation goes with it"
            )
        return super().delete()


class SheetChange(models.Model):
    """One change of a score sheet: who, when, what it was before and after.

    Our own table rather than django-simple-history: one row per change of the sheet
    as a whole (a deal, a penalty, a confirmation, a reopening with its reason), in one
    timeline with the sheet version it produced, written in the same transaction.
    """

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="changes")
    version = models.PositiveIntegerField(help_text="The sheet's version after it.")
    action = models.CharField(max_length=20, choices=SheetAction.choices)
    actor = someone()
    actor_name = models.CharField(max_length=150, help_text="Kept if the user goes.")
    at = models.DateTimeField(auto_now_add=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)
    source = models.CharField(
        max_length=10,
        choices=[("app", "app"), ("file", "file")],
        default="app",
        help_text="file: recorded by an import of a filled score sheet (reason names "
        "the file and row).",
    )
    request_key = models.CharField(
        max_length=100,
        blank=True,
        default="",
        help_text="The client's Idempotency-Key of the request that made this change: "
        "a retry of that request is answered, not done twice.",
    )

    objects = HistoryQuerySet.as_manager()

    class Meta:
        ordering = ["match", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(action__in=[a.value for a in SheetAction]),
                name="scoring_sheet_change_action_known",
            ),
            models.CheckConstraint(
                condition=~Q(action__in=["reopen", "forfeit"]) | ~Q(reason=""),
                name="scoring_sheet_change_reason_given",
            ),
            models.CheckConstraint(
                condition=Q(source__in=["app", "file"]),
                name="scoring_sheet_change_source_known",
            ),
            models.UniqueConstraint(
                fields=["match", "request_key"],
                condition=~Q(request_key=""),
                name="scoring_sheet_change_request_once",
            ),
        ]
        indexes = [models.Index(fields=["match", "at"], name="scoring_change_match_at")]

    def __str__(self) -> str:
        return f"{self.action} v{self.version} by {self.actor_name}"

    def save(self, *args, **kwargs) -> None:
        """The history is written once: a row is added, never changed."""
        if self.pk is not None and not self._state.adding:
            raise HistoryIsWritten(f"history row {self.pk} is kept as written")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        if self.action != "match_create":
            raise HistoryIsWritten(f"history row {self.pk} is kept as written")
        return super().delete(*args, **kwargs)

    @property
    def summary(self) -> str:
        """The change in a few words, for the match page's history, in the page's
        language (scoring/words.py)."""
        return change_summary(self.action, self.after or self.before or {}, self.reason)


class Dispute(models.Model):
    """A disagreement about a sheet, on one deal or the whole match, raised in words
    by a captain of either team, a scorer or an organizer; an organizer (for the
    Rules Committee, 000 §4.7, §5.5) rules on it in words, which closes it. While one
    is open the sheet cannot be confirmed (rules.md §9)."""

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="disputes")
    deal = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The deal's number; empty: the whole match."
    )
    text = models.TextField(max_length=2000)
    raised_by = someone()
    raised_by_name = models.CharField(max_length=150)
    raised_as = models.CharField(
        max_length=20, help_text="captain of A, captain of B, scorer or organizer"
    )
    raised_at = models.DateTimeField()
    ruling = models.TextField(max_length=2000, blank=True, default="")
    ruled_by = someone()
    ruled_by_name = models.CharField(max_length=150, blank=True, default="")
    ruled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(text=""), name="scoring_dispute_text_present"
            ),
            models.CheckConstraint(
                condition=Q(deal__isnull=True)
                | Q(deal__gte=1, deal__lte=DEAL_NUMBER_MAX),
                name="scoring_dispute_deal_1_99",
            ),
            models.CheckConstraint(
                condition=Q(ruled_at__isnull=True, ruling="")
                | (Q(ruled_at__isnull=False) & ~Q(ruling="")),
                name="scoring_dispute_ruled_in_words",
            ),
        ]
        indexes = [
            models.Index(
                fields=["match"],
                condition=Q(ruled_at__isnull=True),
                name="scoring_dispute_open",
            )
        ]

    def __str__(self) -> str:
        on = f"deal {self.deal}" if self.deal else "the match"
        return f"dispute {self.pk} on {on} of {self.match}"

    @property
    def open(self) -> bool:
        return self.ruled_at is None

    def record(self) -> dict:
        return {"dispute": self.pk, "deal": self.deal, "text": self.text}
