"""The rebuild's queue flag (issue 51): its one row is made by the first wish for a
rebuild (scoring/ratings/services.py, rebuild_wanted)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0014_rules_edition"),
    ]

    operations = [
        migrations.CreateModel(
            name="RebuildQueue",
            fields=[
                (
                    "id",
                    models.PositiveSmallIntegerField(
                        default=1, primary_key=True, serialize=False
                    ),
                ),
                ("queued_at", models.DateTimeField(blank=True, null=True)),
                ("rebuilds", models.PositiveBigIntegerField(default=0)),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("id", 1)), name="rebuild_queue_one_row"
                    )
                ],
            },
        ),
    ]
