"""The league's models and the desk's announcements leave the tournament app's state
for scoring's (scoring 0017, which says why): state only, their tables and rows
stay where they are."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0013_tournament_home_country"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="bye",
                    name="team",
                ),
                migrations.RemoveField(
                    model_name="bye",
                    name="tournament",
                ),
                migrations.RemoveField(
                    model_name="leaguedraw",
                    name="created_by",
                ),
                migrations.RemoveField(
                    model_name="leaguedraw",
                    name="tournament",
                ),
                migrations.RemoveField(
                    model_name="leagueround",
                    name="released_by",
                ),
                migrations.RemoveField(
                    model_name="leagueround",
                    name="tournament",
                ),
                migrations.DeleteModel(
                    name="Announcement",
                ),
                migrations.DeleteModel(
                    name="Bye",
                ),
                migrations.DeleteModel(
                    name="LeagueDraw",
                ),
                migrations.DeleteModel(
                    name="LeagueRound",
                ),
            ],
            database_operations=[],
        ),
    ]
