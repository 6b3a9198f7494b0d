"""The bracket listens to its score sheets (scoring.signals), in their transaction."""

from django.dispatch import receiver

from scoring.domain import desk, rounds
from scoring.domain.rules import FINAL_STATUSES, MatchStatus, Stage
from scoring.signals import (
    export_bracket,
    match_named,
    screen_bracket,
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
    return _sheet_name(
        game.knockout_match.kind, game.number, game.knockout_match.best_of
    )


def _sheet_name(kind: str, game: int, best_of: int):
    """A sheet of the final's round by its own match's name ("Final, game 2",
    "Second runner-up match"); None for any other round's, which its round names."""
    if kind == Kind.FINAL:
        return rounds.final_game(game, best_of)
    if kind == Kind.SECOND_RUNNER_UP:
        return rounds.SECOND_RUNNER_UP
    return None


# A sheet's result counts on the screen once decided: completed (provisional until
# confirmed) or final.
_SHOWN = frozenset({MatchStatus.COMPLETED, *FINAL_STATUSES}) - {MatchStatus.VOID}


def _screen_match(mv: selectors.MatchView) -> desk.BracketMatch:
    """One match of the bracket as the venue screen shows it: its result from
    decided sheets only (the screen's render changes with them, not with each
    deal); a series by the games each side has won."""
    km = mv.match
    shown = [g.sheet for g in mv.games if g.sheet.status in _SHOWN]
    scores: tuple[int | None, int | None] = (None, None)
    if km.best_of > 1 and shown:  # no score before a game has a result
        wins = [s.winner for s in shown]
        scores = (wins.count("A"), wins.count("B"))
    elif shown and shown[-1].status != MatchStatus.FORFEITED:
        scores = (shown[-1].total_a, shown[-1].total_b)

    def side(letter: str, team, seed, score) -> desk.BracketSide:
        return desk.BracketSide(
            team.name if team is not None else None, seed, score, km.winner == letter
        )

    return desk.BracketMatch(
        side("A", km.team_a, mv.seed_a, scores[0]),
        side("B", km.team_b, mv.seed_b, scores[1]),
        best_of=km.best_of,
        decided=bool(km.winner),
        provisional=any(s.status == MatchStatus.COMPLETED for s in shown),
        forfeit=any(s.status == MatchStatus.FORFEITED for s in shown),
    )


@receiver(screen_bracket, dispatch_uid="brackets-screen")
def on_screen_bracket(sender, *, tournament, **kwargs):
    """The bracket, the podium and the final's sheets' names for the venue screen, in
    the bracket's own four queries; None before the knockout is seeded."""
    view = selectors.bracket_get(tournament=tournament)
    if view is None:
        return None
    names = {
        game.sheet_id: name
        for mv in view.matches
        for game in mv.games
        if (name := _sheet_name(mv.match.kind, game.number, mv.match.best_of))
    }
    podium = view.podium

    def name(team):
        return team.name if team is not None else None

    return desk.ScreenBracket(
        tuple(
            desk.BracketColumn(r.name, tuple(_screen_match(m) for m in r.matches))
            for r in view.rounds
        ),
        desk.Podium(
            name(podium.champion),
            name(podium.runner_up),
            name(podium.second_runner_up),
            name(podium.third_runner_up),
        ),
        names,
    )
