"""The league's models (its draws, rounds and byes) and the desk's announcements move
from the tournament app to scoring, where the league and the desk are
(docs/architecture.md): state only, with tournament 0014. Their tables keep the
names the tournament app gave them (each model's `db_table`) and every row, so
nothing is copied and a rollback (`manage.py migrate_release 0.4.0`) moves nothing
back but the state. Their content types move too, so the admin's history and any
permission given on them follow (on a new database there are none yet: post_migrate
makes scoring's)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


MOVED = ("leaguedraw", "leagueround", "bye", "announcement")


def _content_types(apps, schema_editor, *, source: str, target: str) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    ContentType.objects.using(db).filter(app_label=source, model__in=MOVED).update(
        app_label=target
    )


def content_types_forward(apps, schema_editor) -> None:
    _content_types(apps, schema_editor, source="tournament", target="scoring")


def content_types_back(apps, schema_editor) -> None:
    _content_types(apps, schema_editor, source="scoring", target="tournament")


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0016_knockout_table_series"),
        ("tournament", "0014_league_models_to_scoring"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Announcement",
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
                        ("text", models.CharField(max_length=200)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("ended_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "created_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "ended_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "tournament",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="announcements",
                                to="tournament.tournament",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournament_announcement",
                        "ordering": ["-created_at"],
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("text", ""), _negated=True),
                                name="announcement_text_present",
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="Bye",
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
                        ("round", models.PositiveSmallIntegerField()),
                        (
                            "team",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="byes",
                                to="tournament.team",
                            ),
                        ),
                        (
                            "tournament",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="byes",
                                to="tournament.tournament",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournament_bye",
                        "ordering": ["tournament", "round"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("tournament", "round"),
                                name="tournament_bye_once_per_round",
                            ),
                            models.UniqueConstraint(
                                fields=("tournament", "team"),
                                name="tournament_bye_once_per_team",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(("round__gte", 1)),
                                name="tournament_bye_round_positive",
                            ),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="LeagueDraw",
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
                        (
                            "number",
                            models.PositiveSmallIntegerField(
                                help_text="1 for the first draw."
                            ),
                        ),
                        ("seed", models.BigIntegerField()),
                        ("algorithm", models.CharField(max_length=40)),
                        ("rounds", models.PositiveSmallIntegerField()),
                        ("teams", models.PositiveIntegerField()),
                        ("restarts", models.PositiveSmallIntegerField(default=0)),
                        ("most_from_one_section", models.PositiveSmallIntegerField()),
                        ("mean_sections_met", models.FloatField()),
                        ("current", models.BooleanField(default=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "created_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "tournament",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="draws",
                                to="tournament.tournament",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournament_leaguedraw",
                        "ordering": ["tournament", "-number"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("tournament", "number"),
                                name="tournament_draw_number_once",
                            ),
                            models.UniqueConstraint(
                                condition=models.Q(("current", True)),
                                fields=("tournament",),
                                name="tournament_draw_one_current",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(("seed__gte", 0)),
                                name="tournament_draw_seed_not_negative",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(
                                    ("number__gte", 1),
                                    ("rounds__gte", 1),
                                    ("teams__gte", 2),
                                ),
                                name="tournament_draw_counts_positive",
                            ),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="LeagueRound",
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
                        ("number", models.PositiveSmallIntegerField()),
                        ("released_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "released_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "tournament",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="league_rounds_drawn",
                                to="tournament.tournament",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tournament_leagueround",
                        "ordering": ["tournament", "number"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("tournament", "number"),
                                name="tournament_round_once",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(("number__gte", 1)),
                                name="tournament_round_number_positive",
                            ),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_forward, content_types_back),
    ]
