"""The games of the final's series at one table (RULES.md §6, issue 52): a league table
plays one match a round; a knockout table one open sheet at a time."""

from django.db import migrations, models

import scoring.domain.rules


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0015_rebuild_queue"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="match",
            name="scoring_match_table_once_per_round",
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.UniqueConstraint(
                condition=models.Q(("stage", scoring.domain.rules.Stage["LEAGUE"])),
                fields=("tournament", "round", "table"),
                name="scoring_match_table_once_per_league_round",
            ),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.UniqueConstraint(
                condition=models.Q(
                    ("stage", scoring.domain.rules.Stage["KNOCKOUT"]),
                    (
                        "status__in",
                        [
                            scoring.domain.rules.MatchStatus["SCHEDULED"],
                            scoring.domain.rules.MatchStatus["IN_PROGRESS"],
                            scoring.domain.rules.MatchStatus["COMPLETED"],
                        ],
                    ),
                ),
                fields=("tournament", "round", "table"),
                name="scoring_match_table_one_open_sheet_per_knockout_round",
            ),
        ),
    ]
