"""Every write to the knockout: seeding the bracket, moving winners on, resets.

Seeding reads the final league standings (scoring.league.selectors.standings_get)
and the lots, and writes the bracket, its seeds, every match of the plan
(domain/progression.py) and the score sheets of the matches whose teams are known.
A winner moves on when its sheet locks (scoring.signals.sheet_locked); reopening a
sheet whose winner already plays on is refused unless the organizer resets the later
sheets, which are then voided, kept with their history (scoring.signals.
sheet_reopening). All in the transaction of the write that caused it.
"""

from __future__ import annotations

from itertools import groupby

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from scoring.domain.rules import Side, Stage
from scoring.league import services as league_services
from scoring.league.selectors import standings_get
from scoring.models import Match, StandingsLot
from scoring.sheets import services as sheets_services
from tournament.backups.services import backup_before_step
from tournament.domain.errors import ConflictError, RuleError, marked
from tournament.domain.types import TeamStatus, TournamentStatus
from tournament.models import Team, Tournament, account

from .domain import progression, seeding
from .domain.progression import Feed, Kind
from .domain.series import FINAL_BEST_OF, series_state
from .models import Bracket, Game, KnockoutMatch, Seed


@transaction.atomic
def knockout_seed(
    *,
    tournament: Tournament,
    user,
    qualifiers: int | None = None,
    deals: dict[str, int] | None = None,
) -> Bracket:
    """Seed the knockout from the final league standings (rules.md §6).

    409 while the league is not final, or once seeded. Equal teams where a seed
    depends on their order are ordered by the standings' lot, drawn now (and
    recorded) if it was not drawn yet. `qualifiers` changes the tournament's number
    of qualifiers (and so the standings' line); `deals` changes a stage's deals per
    match from the defaults of rules.md §6.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if Bracket.objects.filter(tournament=tournament).exists():
        raise ConflictError(
            "knockout_seeded",
            marked(
                "The knockout of %(tournament)s is seeded already; it is seeded once."
            ),
            tournament=tournament.name,
        )
    if qualifiers is None:
        qualifiers = tournament.qualifiers
    size = seeding.bracket_size(qualifiers)
    tables = tournament.league_deals is None
    if tables and deals:
        raise RuleError(
            "stage_deals_tables",
            marked(
                "a tables-format match runs until a team has no tables;"
                " it has no deals per stage to set."
            ),
            field="deals",
        )
    per_stage = seeding.stage_deals(qualifiers, deals)
    # rules.md §9: teams absent from the draw, or withdrawn, cannot qualify.
    teams = Team.objects.filter(tournament=tournament, status=TeamStatus.ACTIVE).count()
    if teams < qualifiers:
        raise RuleError(
            "too_few_teams",
            marked(
                "%(qualifiers)s teams cannot qualify: %(tournament)s has %(teams)s "
                "(not counting teams absent from the draw or withdrawn)."
            ),
            field="qualifiers",
            qualifiers=qualifiers,
            tournament=tournament.name,
            teams=teams,
        )
    backup_before_step(tournament=tournament, step="the knockout seeding", user=user)
    if qualifiers != tournament.qualifiers:
        # Saved before the standings are read, so that their line is the bracket's;
        # a refusal below rolls it back with everything else.
        tournament.qualifiers = qualifiers
        tournament.save(update_fields=["qualifiers", "updated_at"])
    standings = standings_get(tournament=tournament)
    league_services.league_final_check(
        standings.progress, doing=marked("The knockout is seeded")
    )
    lot = StandingsLot.objects.filter(tournament=tournament).first()
    if standings.to_decide and lot is None:
        lot = league_services.standings_lots_draw(tournament=tournament, user=user)
        standings = standings_get(tournament=tournament)
    rows = [
        r
        for r in sorted(standings.rows, key=lambda r: r.standing.place)
        if not r.standing.withdrawn  # rules.md §9: the seeding passes over them
    ][:qualifiers]
    if any(r.qualifies is not True for r in rows):
        raise AssertionError("a qualifier's seed is still undecided after the lot")

    bracket = Bracket.objects.create(
        tournament=tournament,
        qualifiers=qualifiers,
        size=size,
        deals=per_stage if not tables else dict.fromkeys(per_stage),
        final_best_of=FINAL_BEST_OF,
        lot=lot,
        seeded_by=account(user),
    )
    Seed.objects.bulk_create(
        Seed(
            bracket=bracket,
            number=number,
            team_id=row.team.id,
            by_lot=row.standing.lot,
        )
        for number, row in enumerate(rows, start=1)
    )
    team_of = {number: row.team.id for number, row in enumerate(rows, start=1)}
    plan = progression.plan_bracket(qualifiers)
    made: dict[int, KnockoutMatch] = {}
    # Round by round in bulk: a place names an earlier round's match. The plan is
    # checked by its own tests and the database's constraints hold each row.
    for _, slots in groupby(plan.slots, key=lambda slot: slot.round):
        rows = []
        for slot in slots:
            values: dict = {}
            for side, source in (("a", slot.a), ("b", slot.b)):
                values[f"feed_{side}"] = source.feed.value
                if source.feed is Feed.SEED:
                    values[f"seed_{side}"] = source.ref
                    values[f"team_{side}_id"] = team_of[source.ref]
                else:
                    values[f"from_{side}"] = made[source.ref]
            rows.append(
                KnockoutMatch(
                    bracket=bracket,
                    number=slot.number,
                    round=slot.round,
                    position=slot.position,
                    kind=slot.kind.value,
                    stage=slot.stage,
                    best_of=FINAL_BEST_OF if slot.kind is Kind.FINAL else 1,
                    deals_scheduled=bracket.deals[slot.stage],
                    **values,
                )
            )
        created = KnockoutMatch.objects.bulk_create(rows)
        if any(m.pk is None for m in created):  # SQLite before 3.35 returns no ids
            created = list(
                KnockoutMatch.objects.filter(
                    bracket=bracket, number__in=[m.number for m in rows]
                )
            )
        made.update((m.number, m) for m in created)
    ready = [m for m in made.values() if m.team_a_id and m.team_b_id]
    _games_open(ready, number=1, user=user, fresh=True)
    tournament.status = TournamentStatus.KNOCKOUT
    tournament.save(update_fields=["status", "updated_at"])
    return bracket


def _game_open(knockout_match: KnockoutMatch, *, number: int, user) -> Game:
    """A new score sheet for game `number` of a knockout match whose teams are known."""
    (game,) = _games_open([knockout_match], number=number, user=user)
    return game


def _games_open(
    knockout_matches: list[KnockoutMatch], *, number: int, user, fresh: bool = False
) -> list[Game]:
    """New score sheets for game `number` of knockout matches whose teams are known,
    written together. A match that had a sheet keeps its table (rules.md §6: the
    games of the final's series follow each other at the first game's table, and a
    sheet opened after a reset replaces the voided one where it stood); any other
    takes the next free table of its knockout round, in the order given (void
    sheets keep theirs). `fresh`: matches just made, with no sheet yet."""
    if not knockout_matches:
        return []
    tournament = knockout_matches[0].bracket.tournament
    used = dict(
        Match.objects.filter(
            tournament=tournament,
            stage=Stage.KNOCKOUT,
            round__in={m.round for m in knockout_matches},
        )
        .values("round")
        .annotate(m=Max("table"))
        .values_list("round", "m")
    )
    kept = (
        {}
        if fresh
        else dict(
            Game.objects.filter(knockout_match__in=knockout_matches)
            .order_by("-number", "-pk")
            .values_list("knockout_match_id", "sheet__table")
        )
    )  # the first game's table, last in the order: a dict keeps the last value
    plans = []
    for m in knockout_matches:
        table = kept.get(m.pk)
        if table is None:
            used[m.round] = table = used.get(m.round, 0) + 1
        plans.append(
            sheets_services.MatchPlan(
                m.team_a_id, m.team_b_id, m.round, table, m.deals_scheduled
            )
        )
    sheets = sheets_services.matches_create(
        tournament=tournament, user=user, stage=Stage.KNOCKOUT, plans=plans
    )
    return Game.objects.bulk_create(
        Game(knockout_match=m, number=number, sheet=sheet)
        for m, sheet in zip(knockout_matches, sheets, strict=True)
    )


def _live_games(knockout_match: KnockoutMatch) -> list[Game]:
    return list(
        Game.objects.filter(knockout_match=knockout_match, voided_at__isnull=True)
        .select_related("sheet")
        .order_by("number")
    )


def _dependents(knockout_match: KnockoutMatch) -> list[tuple[KnockoutMatch, str]]:
    """The later matches whose place `knockout_match`'s result fills, with the side."""
    later = KnockoutMatch.objects.select_for_update().filter(
        Q(from_a=knockout_match) | Q(from_b=knockout_match)
    )
    return [
        (m, side)
        for m in later.order_by("number")
        for side in "ab"
        if getattr(m, f"from_{side}_id") == knockout_match.pk
    ]


def knockout_match_advance(*, knockout_match_id: int, user) -> KnockoutMatch:
    """After a sheet of this match locked: decide the match (or the series) from its
    confirmed games, move the winner (and for a semi-final the loser) on, and open
    the sheets whose teams are now known. Runs inside the locking transaction."""
    knockout_match = (
        KnockoutMatch.objects.select_for_update()
        .select_related("bracket__tournament")
        .get(pk=knockout_match_id)
    )
    games = _live_games(knockout_match)
    decided = [g for g in games if g.sheet.final]
    state = series_state(
        [Side(g.sheet.winner) for g in decided], best_of=knockout_match.best_of
    )
    if state.winner is None:
        if state.next_game is not None and all(g.sheet.locked for g in games):
            _game_open(knockout_match, number=state.next_game, user=user)
        return knockout_match
    knockout_match.winner = state.winner.value
    knockout_match.decided_at = timezone.now()
    knockout_match.save(update_fields=["winner", "decided_at"])
    for later, side in _dependents(knockout_match):
        feed = getattr(later, f"feed_{side}")
        won = state.winner if feed == Feed.WINNER else state.winner.other
        setattr(later, f"team_{side}_id", knockout_match.team_id(won.value))
        later.save(update_fields=[f"team_{side}"])
        if later.team_a_id and later.team_b_id and not _live_games(later):
            _game_open(later, number=1, user=user)
    tournament = knockout_match.bracket.tournament
    open_matches = KnockoutMatch.objects.filter(
        bracket=knockout_match.bracket, winner=""
    )
    if not open_matches.exists():
        tournament.status = TournamentStatus.FINISHED
        tournament.save(update_fields=["status", "updated_at"])
    return knockout_match


def knockout_sheet_reopening(*, sheet: Match, user, reason: str, reset_next: bool):
    """Before a confirmed knockout sheet is unlocked (rules.md §6, docs/knockout.md).

    Its result may already have filled a later place. A later match that is decided
    refuses: reopen that one first. A later sheet (the next match's, or a later game
    of the final) refuses unless `reset_next`; with it, those sheets are voided, kept
    with their history, and fresh ones are opened when this one is confirmed again.
    The places this result filled are emptied until then.
    """
    game = Game.objects.select_related("knockout_match").filter(sheet=sheet).first()
    if game is None:
        return  # a knockout match an organizer set up by hand
    knockout_match = KnockoutMatch.objects.select_for_update().get(
        pk=game.knockout_match_id
    )
    dependents = _dependents(knockout_match)
    later_games = [g for g in _live_games(knockout_match) if g.number > game.number]
    decided = [m for m, _ in dependents if m.winner] + [
        g for g in later_games if g.sheet.final
    ]
    if decided:
        raise ConflictError(
            "later_match_decided",
            marked(
                "Cannot reopen %(sheet)s: %(later)s is already decided with this "
                "result;"
                " reopen that sheet first (with reset_next if its winner has moved on"
                " too)."
            ),
            sheet=sheet,
            later=decided[0],
        )
    to_void = later_games + [g for m, _ in dependents for g in _live_games(m)]
    if to_void and not reset_next:
        named = ", ".join(f"sheet {g.sheet_id} ({g.sheet})" for g in to_void)
        raise ConflictError(
            "winner_moved_on",
            marked(
                "Cannot reopen %(sheet)s alone: its result already plays on in "
                "%(named)s. Reopen with reset_next to void that sheet (it is kept, "
                "with its history); the place is filled again when this sheet is "
                "confirmed."
            ),
            sheets=[g.sheet_id for g in to_void],
            sheet=sheet,
            named=named,
        )
    now = timezone.now()
    for g in to_void:
        sheets_services.score_sheet_void(
            match_id=g.sheet_id,
            user=user,
            reason=f"reset: sheet {sheet.pk} was reopened ({reason})",
        )
        g.voided_at = now
        g.save(update_fields=["voided_at"])
    for later, side in dependents:
        setattr(later, f"team_{side}", None)
        later.save(update_fields=[f"team_{side}"])
    if knockout_match.winner:
        knockout_match.winner = ""
        knockout_match.decided_at = None
        knockout_match.save(update_fields=["winner", "decided_at"])
    tournament = Tournament.objects.get(pk=sheet.tournament_id)
    if tournament.status == TournamentStatus.FINISHED:
        tournament.status = TournamentStatus.KNOCKOUT
        tournament.save(update_fields=["status", "updated_at"])
