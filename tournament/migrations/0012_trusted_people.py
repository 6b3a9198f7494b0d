"""Rated tournaments and namesake suggestions (issue 51, docs/ratings.md "What the site
trusts"). A site upgraded from 0.3 keeps its ratings: every tournament published
before counts as rated, as it did; a site administrator may unmark any of them."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def published_count_as_rated(apps, schema_editor):
    Tournament = apps.get_model("tournament", "Tournament")
    Tournament.objects.filter(published=True).update(rated=True)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0011_people"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="tournament",
            options={
                "ordering": ["-starts_on", "-created_at"],
                "permissions": [
                    (
                        "rate_tournament",
                        "Marks the tournaments they organize rated (a trusted creator)",
                    )
                ],
            },
        ),
        migrations.AddField(
            model_name="tournament",
            name="rated",
            field=models.BooleanField(
                default=False,
                help_text="Its confirmed matches count for the site's ratings (once published); marked by a site administrator or a trusted creator.",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="rated_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="tournament",
            name="rated_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.CreateModel(
            name="NamesakeSuggestion",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True,
                        primary_key=True,
                        serialize=False,
                        verbose_name="ID",
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "namesake",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="suggested",
                        to="tournament.person",
                    ),
                ),
                (
                    "person",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="namesake_of",
                        to="tournament.person",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="tournament.tournament",
                    ),
                ),
            ],
            options={
                "ordering": ["created_at", "pk"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("person", "namesake"), name="namesake_suggested_once"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("person", models.F("namesake")), _negated=True
                        ),
                        name="namesake_not_oneself",
                    ),
                ],
            },
        ),
        migrations.RunPython(published_count_as_rated, migrations.RunPython.noop),
    ]
