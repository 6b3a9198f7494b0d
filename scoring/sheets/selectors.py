"""Reads of score sheets (writes are in services.py).

A sheet's awards and totals are stored on its rows, recomputed on every write; the
running totals and the checkpoints (the totals announced after every sixth deal and
each of the last six, rules.announced_after) are computed on read from
the same rows by rules.score_sheet, which is cheap (a match has at most 99 deals).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q, QuerySet

from scoring.models import LeagueRound
from tournament.domain.rulesets import ruleset_get
from tournament.domain.types import Role
from tournament.models import Membership, Tournament
from tournament.selectors import ALL_ROLES, tournament_roles

from ..domain import rules, tiebreak
from ..domain.rules import MatchStatus, Side, Stage
from ..models import Deal, Dispute, Match, Penalty, SheetChange

DEAL_VALUE_FIELDS = ("number", "declarer", "value", "trump", "level", "taken")
MATCH_RELATED = ("tournament", "team_a__section", "team_b__section")
# Sheets whose result is decided: they count in the standings.
DECIDED = (MatchStatus.COMPLETED, MatchStatus.CONFIRMED, MatchStatus.FORFEITED)
# Who sees a drawn round before the organizer releases it.
DRAFT_READERS = frozenset({Role.ORGANIZER, Role.SCORER})


def sees_drafts(roles: frozenset[Role]) -> bool:
    return bool(roles & DRAFT_READERS)


def draft_rounds(tournament) -> QuerySet[LeagueRound]:
    return LeagueRound.objects.filter(
        tournament=tournament, released_at__isnull=True
    ).values("number")


def deal_value(deal: Deal) -> rules.Deal:
    return rules.Deal(
        number=deal.number,
        declarer=Side(deal.declarer),
        value=deal.value,
        trump=rules.Trump(deal.trump),
        level=rules.Level(deal.level),
        taken=deal.taken,
    )


def penalty_value(penalty: Penalty, *, deal_number: int, key: int) -> rules.Penalty:
    kind = rules.PenaltyKind(penalty.kind)
    return rules.Penalty(
        key=key,
        deal=deal_number,
        offender=Side(penalty.offender),
        kind=kind,
        points=penalty.points if kind is rules.PenaltyKind.CONDUCT else None,
    )


def sheet_settle(
    match: Match, deals: list[Deal], penalties: list[Penalty]
) -> tuple[rules.Sheet, tiebreak.Tiebreak | None]:
    """The domain's sheet for stored (or about to be stored) rows, and for a knockout
    match its tie-break (rules.md §6), which decides when the sheet is complete.

    A penalty names a saved deal; one without a primary key yet is the newest entry
    and sorts last within its deal.
    """
    number_of = {d.pk: d.number for d in deals if d.pk is not None}
    values = [
        penalty_value(p, deal_number=number_of[p.deal_id], key=p.pk or 10**9)
        for p in penalties
    ]
    knockout = match.stage == Stage.KNOCKOUT
    sheet = rules.score_sheet(
        ruleset_get(match.tournament.ruleset),
        [deal_value(d) for d in deals],
        values,
        deals_scheduled=match.deals_scheduled,
        knockout=knockout,
        edition=rules.Edition(match.rules_edition),
    )
    if not knockout or match.deals_scheduled is None:
        return sheet, None  # the tables format has no ties (rules.md §8)
    settled = tiebreak.settle(
        sheet, deals_scheduled=match.deals_scheduled, toss=match.toss
    )
    return tiebreak.apply(sheet, settled), settled


@dataclass(frozen=True)
class SheetView:
    match: Match
    deals: list[Deal]
    penalties: list[Penalty]
    sheet: rules.Sheet
    tiebreak: tiebreak.Tiebreak | None = None

    def rows(self) -> list[tuple[Deal, rules.SheetRow, list[Penalty]]]:
        """Each deal with its computed row and its penalties, in deal order."""
        by_deal: dict[int, list[Penalty]] = {}
        for p in self.penalties:
            by_deal.setdefault(p.deal_id, []).append(p)
        row_of = {r.number: r for r in self.sheet.rows}
        return [(d, row_of[d.number], by_deal.get(d.pk, [])) for d in self.deals]

    def checkpoints(self) -> list[rules.SheetRow]:
        return [r for r in self.sheet.rows if r.checkpoint]

    def next_number(self) -> int | None:
        """The first scheduled deal not on the sheet (tables: the next number)."""
        if self.sheet.missing:
            return self.sheet.missing[0]
        if self.match.deals_scheduled is None and not self.sheet.complete:
            return (self.deals[-1].number + 1) if self.deals else 1
        return None

    @property
    def tiebreak_deals(self) -> int:
        """Deals on the sheet past the scheduled ones: a knockout's tie-break."""
        return max(0, len(self.deals) - (self.match.deals_scheduled or len(self.deals)))

    @property
    def scheduled_played(self) -> int:
        """The scheduled deals on the sheet (a tie-break's are counted apart)."""
        return len(self.deals) - self.tiebreak_deals

    @property
    def confirmed_a(self) -> bool:
        return self.confirmed(Side.A)

    @property
    def confirmed_b(self) -> bool:
        return self.confirmed(Side.B)

    def confirmable_by(self, *, roles: frozenset[Role], sides: frozenset[Side]) -> bool:
        return sheet_confirmable(self.match, roles=roles, sides=sides)

    def confirmed(self, side: Side) -> bool:
        return sheet_confirmed(self.match, side)


def sheet_confirmed(match: Match, side: Side) -> bool:
    """This side's captain confirmed the sheet as it is now (a locked sheet: as it was
    when it locked, the version before the lock's). The match's row alone says it."""
    got = match.confirmed_a_version if side is Side.A else match.confirmed_b_version
    if match.status == MatchStatus.CONFIRMED:
        return got is not None and got == match.version - 1
    return got == match.version


def sheet_confirmable(
    match: Match, *, roles: frozenset[Role], sides: frozenset[Side]
) -> bool:
    """Whether a person with these roles, captain of these sides, may confirm now: a
    completed sheet, for an organizer or a captain who has not confirmed it."""
    if match.status != MatchStatus.COMPLETED or match.open_disputes:
        return False
    return Role.ORGANIZER in roles or any(not sheet_confirmed(match, s) for s in sides)


def confirmations_withdrawn(matches) -> dict[int, dict[str, int]]:
    """For each match, the sides whose captain confirmed it and saw a dispute withdraw
    that confirmation, with the dispute's number: `{match: {"B": 4}}`. A sheet locked
    since is left out. One query, and none when no confirmation is behind its
    sheet."""
    wanted = Q()
    for match in matches:
        if match.status == MatchStatus.CONFIRMED:
            continue
        for got in {match.confirmed_a_version, match.confirmed_b_version}:
            if got is not None and got != match.version:
                # A dispute withdraws the confirmations of the version it raises the
                # sheet from: its own change is the next version (sheets/day.py).
                wanted |= Q(match=match.pk, version=got + 1)
    if not wanted:
        return {}
    found: dict[int, dict[str, int]] = {}
    for match_id, after in SheetChange.objects.filter(
        wanted, action="dispute"
    ).values_list("match", "after"):
        for side in (after or {}).get("confirmations_withdrawn", []):
            found.setdefault(match_id, {})[side] = after["dispute"]
    return found


def sheet_read(*, match: Match) -> SheetView:
    """A match's deals and penalties (two queries) and its computed sheet."""
    deals = list(
        Deal.objects.filter(match=match).select_related("entered_by").order_by("number")
    )
    penalties = list(
        Penalty.objects.filter(deal__match=match)
        .select_related("entered_by")
        .order_by("deal__number", "pk")
    )
    return SheetView(match, deals, penalties, *sheet_settle(match, deals, penalties))


def match_queryset() -> QuerySet[Match]:
    return Match.objects.select_related(*MATCH_RELATED)


def match_get_visible(*, user, pk: int) -> tuple[Match, frozenset[Role]] | None:
    """The match and the caller's roles in its tournament, or None if hidden from the
    caller (an unpublished tournament without a role in it)."""
    draft = LeagueRound.objects.filter(
        tournament=OuterRef("tournament"),
        number=OuterRef("round"),
        released_at__isnull=True,
    )
    match = match_queryset().annotate(draft=Exists(draft)).filter(pk=pk).first()
    if match is None:
        return None
    roles = tournament_roles(user=user, tournament=match.tournament)
    if not match.tournament.published and not roles:
        return None
    if match.stage == Stage.LEAGUE and match.draft and not sees_drafts(roles):
        return None  # a round the organizer has not released yet
    return match, roles


# A write's access check in one plain query: the match's own row, whether its
# tournament is published, and the caller's roles there (a row per role).
_ACCESS_SQL = f"""
SELECT m.*, t.published AS tournament_published, mb.role AS member_role
FROM {Match._meta.db_table} m
JOIN {Tournament._meta.db_table} t ON t.id = m.tournament_id
LEFT JOIN {Membership._meta.db_table} mb
  ON mb.tournament_id = m.tournament_id AND mb.user_id = %s
WHERE m.id = %s
"""  # noqa: S608 - our own tables, no input


def match_access(*, user, pk: int) -> tuple[Match, frozenset[Role]] | None:
    """What match_get_visible answers, for a write: the match (its own row; the
    service reads and locks it again) and the caller's roles, or None if hidden
    from the caller. One query (two for a captain in a drawn round): a write is the
    hot path of a tournament day, and the full read's joins cost more to build than
    the write itself."""
    user_id = user.pk if user.is_authenticated else None
    rows = list(Match.objects.raw(_ACCESS_SQL, [user_id, pk]))
    if not rows:
        return None
    match = rows[0]
    if user.is_authenticated and user.is_superuser:
        roles = ALL_ROLES
    else:
        roles = frozenset(Role(r.member_role) for r in rows if r.member_role)
    if not match.tournament_published and not roles:
        return None
    if match.stage == Stage.LEAGUE and not sees_drafts(roles):
        draft = LeagueRound.objects.filter(
            tournament_id=match.tournament_id,
            number=match.round,
            released_at__isnull=True,
        )
        if draft.exists():
            return None  # a round the organizer has not released yet
    return match, roles


def captain_sides(*, user, match: Match) -> frozenset[Side]:
    """The sides of `match` whose captain `user` is."""
    if not user.is_authenticated:
        return frozenset()
    teams = set(
        Membership.objects.filter(
            tournament_id=match.tournament_id,
            user=user,
            role=Role.CAPTAIN,
            team_id__in=[match.team_a_id, match.team_b_id],
        ).values_list("team_id", flat=True)
    )
    return frozenset(
        side
        for side, team_id in ((Side.A, match.team_a_id), (Side.B, match.team_b_id))
        if team_id in teams
    )


def match_list(
    *,
    tournament: Tournament,
    round: int | None = None,
    team: int | None = None,
    stage: str | None = None,
    drafts: bool = True,
) -> QuerySet[Match]:
    """`drafts=False` leaves out the league rounds not released yet."""
    qs = match_queryset().filter(tournament=tournament)
    if not drafts:
        qs = qs.exclude(stage=Stage.LEAGUE, round__in=draft_rounds(tournament))
    if round is not None:
        qs = qs.filter(round=round)
    if team is not None:
        qs = qs.filter(Q(team_a_id=team) | Q(team_b_id=team))
    if stage:
        qs = qs.filter(stage=stage)
    return qs.order_by("stage", "round", "table")


def sheet_change_list(*, match: Match) -> QuerySet[SheetChange]:
    return SheetChange.objects.filter(match=match).order_by("pk")


def dispute_list(*, match: Match) -> QuerySet[Dispute]:
    return Dispute.objects.filter(match=match).order_by("pk")
