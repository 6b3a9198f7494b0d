"""`manage.py demo [--host 127.0.0.1:8000]`: the demo tournaments as `make run` serves
them, loaded and played part of the way unless they are, with a short account: a line
per tournament, then what to open, the link of the first table still playing (table 1
when none is) and the demo logins last, so
they are the last thing printed before the server starts (README).

It lives in brackets, the app that sees the other two (docs/architecture.md)."""

from django.core.management.base import BaseCommand
from django.db.models import Max, Q

from brackets.demo import demo_knockout_play
from scoring.demo import demo_league_play
from scoring.domain.rules import MatchStatus, Stage
from scoring.links.selectors import tables_needed
from scoring.links.services import table_links
from scoring.models import Match
from tournament.demo import demo_load
from tournament.ops.logs import tasks_quiet


def site_url(host: str) -> str:
    """The address `runserver HOST` serves, as a browser opens it."""
    if host.isdigit():
        host = f"127.0.0.1:{host}"
    if host.startswith(("0.0.0.0:", "[::]:")):
        host = "127.0.0.1:" + host.rsplit(":", 1)[1]
    return f"http://{host}"


def _table_in_play(league) -> int:
    """The first table whose sheet of the league's latest round still takes deals, so
    that the link printed opens a deal's form (a new user found table 1's sheet full,
    waiting for its captains); table 1 when none does."""
    latest = Match.objects.filter(tournament=league, stage=Stage.LEAGUE).aggregate(
        round=Max("round", filter=~Q(status=MatchStatus.SCHEDULED))
    )["round"]
    found = (
        Match.objects.filter(
            tournament=league,
            stage=Stage.LEAGUE,
            round=latest,
            status__in=[MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS],
        )
        .order_by("table")
        .values_list("table", flat=True)
        .first()
    )
    return found or 1


class Command(BaseCommand):
    help = (
        "Load the demo tournaments (a league in play, a knockout in play) unless they "
        "are loaded; print what to open and the demo logins last."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--host",
            default="127.0.0.1:8000",
            help="the address the server will serve (make run's HOST), for the links",
        )

    def handle(self, *args, host: str, **options):
        site = site_url(host)
        with tasks_quiet():
            league, users = demo_load()
            _, league_played = demo_league_play()
            knockout, _ = demo_knockout_play()
        loaded = "loaded now" if league_played else "loaded already"
        self.stdout.write(f"The demo ({loaded}):")
        self.stdout.write(
            f"  {league.name}, its league in play: {site}/t/{league.slug}/standings/"
        )
        self.stdout.write(
            f"  {knockout.name}, its knockout in play: "
            f"{site}/t/{knockout.slug}/bracket/"
        )
        self.stdout.write(f"Open {site}/ ; the API docs are at {site}/api/v1/docs/")
        if tables_needed(league):
            table = _table_in_play(league)
            link = table_links(tournament=league, tables={table})[table]
            self.stdout.write(
                f"Table {table}'s link, no login needed (open it on a phone): "
                f"{site}/l/{link.key}/"
            )
            self.stdout.write(
                f"  every table's link and QR code: {site}/t/{league.slug}/links/"
            )
        self.stdout.write("Demo logins (user / password / role):")
        for user in users:
            team = f" of {user['team']}" if user.get("team") else ""
            self.stdout.write(
                f"  {user['username']:<10} {user['password']:<14} {user['role']}{team}"
            )
