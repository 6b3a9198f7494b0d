"""The bracket listens to its score sheets (scoring.signals), in their transaction."""

from django.dispatch import receiver

from scoring.domain import rounds
from scoring.domain.rules import Stage
from scoring.signals import (
    export_bracket,
    match_named,
    sheet_locked,
    sheet_reopening,
)
from tournament.signals import champions_named

from . import selectors, services
from .domain.progression import Kind
from .models import Game


@receiver(sheet_locked, dispatch_uid="brackets-sheet-locked")
def on_sheet_locked(sender, *, match, user, **kwargs):
    if match.stage != Stage.KNOCKOUT:
        return
    game = Game.objects.filter(sheet=match).only("knockout_match_id").first()
    if game is not None:
        services.knockout_match_advance(
            knockout_match_id=game.knockout_match_id, user=user
        )


@receiver(sheet_reopening, dispatch_uid="brackets-sheet-reopening")
def on_sheet_reopening(sender, *, match, user, reason, reset_next, **kwargs):
    if match.stage == Stage.KNOCKOUT:
        services.knockout_sheet_reopening(
            sheet=match, user=user, reason=reason, reset_next=reset_next
        )


@receiver(export_bracket, dispatch_uid="brackets-export")
def on_export_bracket(sender, *, tournament, **kwargs):
    return selectors.bracket_export(tournament=tournament)


@receiver(champions_named, dispatch_uid="brackets-champions")
def on_champions_named(sender, *, tournaments, **kwargs):
    """The tournament's pages name a finished tournament's champion (one query)."""
    return selectors.champions_list(tournaments=tournaments)


@receiver(match_named, dispatch_uid="brackets-match-named")
def on_match_named(sender, *, match, **kwargs):
    """The final's round holds the final and the second runner-up match: which one a
    sheet is (and which game of a best-of-three final) is the bracket's to say."""
    if match.stage != Stage.KNOCKOUT:
        return None
    game = (
        Game.objects.filter(sheet=match)
        .select_related("knockout_match")
        .only("number", "knockout_match__kind", "knockout_match__best_of")
        .first()
    )
    if game is None:
        return None
    kind = game.knockout_match.kind
    if kind == Kind.FINAL:
        return rounds.final_game(game.number, game.knockout_match.best_of)
    if kind == Kind.SECOND_RUNNER_UP:
        return rounds.SECOND_RUNNER_UP
    return None
