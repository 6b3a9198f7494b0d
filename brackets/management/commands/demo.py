"""`manage.py demo [--host 127.0.0.1:8000]`: the demo tournaments as `make run` serves
them, loaded and played part of the way unless they are, with a short account: a line
per tournament, then what to open, the link of table 1 and the demo logins last, so
they are the last thing printed before the server starts (README).

It lives in brackets, the app that sees the other two (docs/architecture.md)."""

from django.core.management.base import BaseCommand

from brackets.demo import demo_knockout_play
from scoring.demo import demo_league_play
from scoring.links.selectors import tables_needed
from tournament.demo import demo_load
from tournament.links.services import table_links
from tournament.logs import tasks_quiet


def site_url(host: str) -> str:
    """The address `runserver HOST` serves, as a browser opens it."""
    if host.isdigit():
        host = f"127.0.0.1:{host}"
    if host.startswith(("0.0.0.0:", "[::]:")):
        host = "127.0.0.1:" + host.rsplit(":", 1)[1]
    return f"http://{host}"


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
            link = table_links(tournament=league, tables={1})[1]
            self.stdout.write(
                f"Table 1's link, no login needed (open it on a phone): "
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
