from django.core.management.base import BaseCommand

from tournament.demo import demo_load


class Command(BaseCommand):
    help = "Load the demo tournament from fixtures/ (unless it exists); print logins."

    def add_arguments(self, parser):
        parser.add_argument(
            "--reset", action="store_true", help="delete and load it again"
        )

    def handle(self, *args, reset: bool = False, **options):
        tournament, users = demo_load(reset=reset)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo tournament: {tournament.name}, {tournament.teams.count()} teams "
                f"in {tournament.sections.count()} sections"
            )
        )
        self.stdout.write("Demo logins (user / password / role):")
        for user in users:
            team = f" of {user['team']}" if user.get("team") else ""
            self.stdout.write(
                f"  {user['username']:<10} {user['password']:<14} {user['role']}{team}"
            )
        self.stdout.write(
            "Open http://127.0.0.1:8000/ ; the API docs are at /api/v1/docs/"
        )
