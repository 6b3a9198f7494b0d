"""A season's writes (RULES.md §10; docs/ratings.md, "Seasons"): a site
administrator groups running or finished tournaments with a table of points."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.db import transaction
from django.utils.text import slugify

from tournament.domain.errors import ConflictError, RuleError, RuleErrors, marked
from tournament.domain.types import TournamentStatus
from tournament.models import Tournament, account

from ..domain.seasons import points_table
from ..models import Season


def _name(name: str, errors: list[RuleError]) -> str:
    name = " ".join(name.split())
    if not name:
        errors.append(
            RuleError("required", marked("a season needs a name"), field="name")
        )
    return name


def _table(points: Mapping[int, int] | None, errors: list[RuleError]) -> dict:
    """The table as stored ({"place": points}), the default when None."""
    try:
        return {str(k): v for k, v in points_table(points).items()}
    except ValueError as error:
        errors.append(
            RuleError(
                "points_table",
                marked("the points table is wrong: %(problem)s"),
                field="points",
                problem=str(error),
            )
        )
        return {}


def _tournaments(slugs: Sequence[str], errors: list[RuleError]) -> list[Tournament]:
    wanted = list(dict.fromkeys(slugs))
    found = {t.slug: t for t in Tournament.objects.filter(slug__in=wanted)}
    missing = [s for s in wanted if s not in found]
    waiting = [
        t.name for t in found.values() if t.status == TournamentStatus.REGISTRATION
    ]
    if missing:
        errors.append(
            RuleError(
                "unknown_tournament",
                marked("there is no tournament %(slugs)s"),
                field="tournaments",
                slugs=", ".join(missing),
            )
        )
    elif waiting:
        errors.append(
            RuleError(
                "not_started",
                marked(
                    "%(names)s has not started: a season groups running or finished "
                    "tournaments"
                ),
                field="tournaments",
                names=", ".join(waiting),
            )
        )
    return list(found.values())


def _refuse(errors: list[RuleError]) -> None:
    if errors:
        raise errors[0] if len(errors) == 1 else RuleErrors(errors)


@transaction.atomic
def season_create(
    *,
    name: str,
    tournaments: Sequence[str],
    slug: str = "",
    points: Mapping[int, int] | None = None,
    user=None,
) -> Season:
    """A season of these tournaments (slugs), scored by `points` (the default table
    when None). Each must be past its registration: a season ranks what was played."""
    errors: list[RuleError] = []
    name = _name(name, errors)
    slug = slug or slugify(name)[:60]
    if not slug and name:
        errors.append(
            RuleError(
                "slug_empty",
                marked("give the season a slug of letters or digits"),
                field="slug",
            )
        )
    table = _table(points, errors)
    found = _tournaments(tournaments, errors)
    _refuse(errors)
    if Season.objects.filter(slug=slug).exists():
        raise ConflictError(
            "slug_taken",
            marked("there is a season %(slug)s already"),
            field="slug",
            slug=slug,
        )
    season = Season(name=name, slug=slug, points=table, created_by=account(user))
    season.full_clean(exclude=["tournaments"])
    season.save()
    season.tournaments.set(found)
    return season


@transaction.atomic
def season_update(
    *,
    season: Season,
    name: str | None = None,
    tournaments: Sequence[str] | None = None,
    points: Mapping[int, int] | None = None,
) -> Season:
    """A season's name, tournaments or table changed (what is not given stays); its
    standings follow at once, being computed when asked."""
    errors: list[RuleError] = []
    season = Season.objects.select_for_update().get(pk=season.pk)
    if name is not None:
        season.name = _name(name, errors)
    if points is not None:
        season.points = _table(points, errors)
    found = _tournaments(tournaments, errors) if tournaments is not None else None
    _refuse(errors)
    season.full_clean(exclude=["tournaments"])
    season.save()
    if found is not None:
        season.tournaments.set(found)
    return season
