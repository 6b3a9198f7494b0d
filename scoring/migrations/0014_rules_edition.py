# The penalty rules of rules.md §3 as amended for release 0.4: two new kinds
# (lead_out_of_turn, review), gcka without warnings, conduct up to 5 outside gcka, two
# awarding offences in one deal. A sheet already holding penalties keeps the edition
# it was scored by (Match.rules_edition 1), so that no result already on a sheet
# changes; every other sheet, and every new one, is scored by the current edition (2).

from django.db import migrations, models
from django.db.models import Exists, OuterRef, Q

WARNED = ["lead_out_of_turn", "out_of_turn"]
AWARDING = ["cardinal_rule", "constraining_hand", "kallakali"]
KINDS_BEFORE = [
    "out_of_turn",
    "cardinal_rule",
    "kallakali",
    "constraining_hand",
    "conduct",
]
KINDS = [*KINDS_BEFORE, "lead_out_of_turn", "review"]
KIND_CHOICES = [
    ("out_of_turn", "Out of turn"),
    ("cardinal_rule", "Cardinal rule"),
    ("kallakali", "Kallakali"),
    ("constraining_hand", "Constraining hand"),
    ("conduct", "Conduct"),
    ("lead_out_of_turn", "Lead out of turn"),
    ("review", "Review"),
]


def editions_set(apps, schema_editor):
    """Sheets with no penalty were scored by no penalty rule: the current edition."""
    Match = apps.get_model("scoring", "Match")
    Penalty = apps.get_model("scoring", "Penalty")
    Match.objects.filter(
        ~Exists(Penalty.objects.filter(deal__match=OuterRef("pk")))
    ).update(rules_edition=2)


def editions_back(apps, schema_editor):
    """Going back is refused, with the reason, where a sheet holds what the earlier
    code cannot: a penalty of a new kind, conduct over 2 points, or a deal given
    away twice. Restore the backup taken before the upgrade instead."""
    Penalty = apps.get_model("scoring", "Penalty")
    found = Penalty.objects.filter(
        Q(kind__in=["lead_out_of_turn", "review"]) | Q(kind="conduct", points__gt=2)
    )
    twice = (
        Penalty.objects.filter(kind__in=AWARDING)
        .values("deal")
        .annotate(n=models.Count("id"))
        .filter(n__gt=1)
    )
    if found.exists() or twice.exists():
        raise RuntimeError(
            "Cannot go back before scoring 0014: sheets hold penalties scored by the "
            "rules of release 0.4 (a lead out of turn, a review, conduct over 2 "
            "points, or two awarding penalties in one deal). Restore the backup taken before the upgrade instead "
            "(docs/deploy.md, 'Rolling back')."
        )


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0013_rebuild_wanted"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="penalty", name="scoring_penalty_kind_known"
        ),
        migrations.RemoveConstraint(
            model_name="penalty", name="scoring_penalty_points_by_kind"
        ),
        migrations.RemoveConstraint(
            model_name="penalty", name="scoring_penalty_deal_awarded_once"
        ),
        # Every sheet there is now was scored by the first edition...
        migrations.AddField(
            model_name="match",
            name="rules_edition",
            field=models.PositiveSmallIntegerField(default=1),
        ),
        # ...but one without a penalty was scored by no penalty rule at all.
        migrations.RunPython(editions_set, editions_back),
        migrations.AlterField(
            model_name="match",
            name="rules_edition",
            field=models.PositiveSmallIntegerField(default=2),
        ),
        migrations.AlterField(
            model_name="penalty",
            name="kind",
            field=models.CharField(choices=KIND_CHOICES, max_length=20),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.CheckConstraint(
                condition=Q(rules_edition__in=[1, 2]),
                name="scoring_match_rules_edition_known",
            ),
        ),
        migrations.AddConstraint(
            model_name="penalty",
            constraint=models.CheckConstraint(
                condition=Q(kind__in=KINDS), name="scoring_penalty_kind_known"
            ),
        ),
        migrations.AddConstraint(
            model_name="penalty",
            constraint=models.CheckConstraint(
                condition=Q(kind__in=WARNED, warning=True, points=0)
                | Q(kind__in=WARNED, warning=False, points=1)
                | Q(kind="review", warning=False, points=1)
                | Q(kind__in=AWARDING, warning=False, points=3)
                | Q(kind="conduct", warning=False, points__gte=0, points__lte=5),
                name="scoring_penalty_points_by_kind",
            ),
        ),
    ]
