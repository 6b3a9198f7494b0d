"""What the tournament's pages ask the apps above them (brackets), which answer as
receivers: the tournament app depends on none of them (docs/architecture.md)."""

from django.dispatch import Signal

from .domain.types import TournamentStatus

# Sent by the home page's list and a tournament's Overview for the finished
# tournaments they show. Arguments: tournaments (Tournament rows). A receiver answers
# {tournament id: its champion's name} (brackets: the final's winner).
champions_named = Signal()


def champions_get(tournaments) -> dict[int, str]:
    """The champions of the finished ones among `tournaments`: no query when none
    is finished, else the receivers' (one)."""
    finished = [t for t in tournaments if t.status == TournamentStatus.FINISHED]
    named: dict[int, str] = {}
    if finished:
        for _receiver, answer in champions_named.send(
            sender=None, tournaments=finished
        ):
            named.update(answer or {})
    return named
