"""Every write of the ratings (RULES.md §10; docs/ratings.md, "Ratings").

`ratings_refresh(since)` makes the stored ratings what the sheets say from a place in
the ratings' order on: it takes back every rated match from there, rates again every
confirmed match from there from the ratings each player had just before, and stores
each step and each person's rating now. The worker runs it when a sheet is confirmed
or reopened (from that sheet's place); a merge, a split or a restore runs it from the
start, as `manage.py ratings_rebuild` does. Rating a list in two parts gives exactly
what rating it whole gives (scoring/domain/ratings.py), so a refresh from any place
stores what a rebuild would, to the last bit.

Every confirmed match of a counted tournament (published and rated: `COUNTED`) is
taken (a `RatedGame`), rated or not: one whose sides have no players to rate (a team
registered without its players, a person on both sides) is taken with empty sides.
So a refresh that never ran (Redis down when it was sent, a worker killed holding it)
leaves a trace two quick queries find, `ratings_behind`: a sheet's refresh reaches
back to it in the sheet's own tournament, and a periodic look (Celery beat's) looks
over the whole site and sends `ratings_catch_up` when one is there and nothing else is
coming.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from django.db import connection, transaction
from django.db.models import Exists, F, Max, Min, OuterRef, Q
from django.utils import timezone

from tournament.db.bulk import rows_insert
from tournament.domain.persons import person_key
from tournament.domain.roster import roster_at, roster_played
from tournament.domain.types import RoundStage
from tournament.models import Person, Seat, Team, Tournament
from tournament.persons.services import seats_sync
from tournament.selectors import rosters_get

from ..domain import ratings as rating
from ..domain.rules import MatchStatus, Stage
from ..models import (
    Match,
    PersonRating,
    RatedGame,
    RatingStep,
    RebuildQueue,
    RebuildWanted,
)

START = ""  # before every place: a refresh from the start is a rebuild
# The tournaments whose confirmed matches the ratings take: published (the public sees
# them) and rated (a site administrator or a trusted creator vouched for them:
# docs/ratings.md, "What the site trusts").
COUNTED = Q(published=True, rated=True)
_LOCK = 5656_0044  # PostgreSQL's advisory lock of the ratings' writes
_GAME_COLUMNS = (
    "tournament_id",
    "match",
    "position",
    "stage",
    "round",
    "outcome",
    "side_a",
    "side_b",
)
_STEP_COLUMNS = ("game_id", "person_id", "position", "mu", "sigma", "matches")


def tournament_day(tournament: Tournament) -> str:
    """The day a tournament's matches are placed by: its first day, or the day it
    was made when it has none."""
    day = tournament.starts_on or tournament.created_at.date()
    return day.isoformat()


def match_position(match: Match, day: str) -> str:
    return rating.position(
        day,
        match.tournament_id,
        match.stage == Stage.KNOCKOUT,
        match.round,
        match.table,
        match.pk,
    )


@dataclass(frozen=True)
class _Game:
    position: str
    match: Match
    sides: tuple[list[int], list[int]]  # both empty: taken, not rated
    outcome: rating.Outcome

    @property
    def rates(self) -> bool:
        return bool(self.sides[0])


def _outcome(match: Match) -> rating.Outcome:
    if match.winner == "A":
        return rating.Outcome.A
    if match.winner == "B":
        return rating.Outcome.B
    return rating.Outcome.TIE


def _people_of(
    tournament: Tournament, teams: Iterable[int]
) -> dict[tuple[int, str], int]:
    return {
        (team, key): person
        for team, key, person in Seat.objects.filter(team__in=list(teams)).values_list(
            "team", "key", "person"
        )
    }


def _games(tournament: Tournament, since: str, only: int | None = None) -> list[_Game]:
    """The tournament's confirmed matches from `since` on (or the one sheet `only`),
    each with its two sides' people (the rosters of its round, after substitutions)
    and its outcome; a match with a side of nobody, or a person on both sides, has
    both sides empty (taken, not rated). A forfeited sheet is never confirmed (it is
    forfeited), so it never rates."""
    day = tournament_day(tournament)
    confirmed = Match.objects.filter(
        tournament=tournament, status=MatchStatus.CONFIRMED
    )
    if only is not None:
        confirmed = confirmed.filter(pk=only)
    parts = since.split("|")
    if len(parts) == 6 and parts[:2] == [day, f"{tournament.pk:012d}"]:
        # `since` is in this tournament: only its later rounds are read.
        if parts[2] == "1":
            confirmed = confirmed.filter(stage=Stage.KNOCKOUT, round__gte=int(parts[3]))
        else:
            confirmed = confirmed.filter(
                Q(stage=Stage.KNOCKOUT)
                | Q(stage=Stage.LEAGUE, round__gte=int(parts[3]))
            )
    matches = [
        (match_position(m, day), m)
        for m in confirmed.only(
            "tournament_id",
            "stage",
            "round",
            "table",
            "team_a_id",
            "team_b_id",
            "winner",
            "forfeit_absent",
        )
    ]
    matches = sorted((p, m) for p, m in matches if p >= since)
    if not matches:
        return []
    teams = {t for _, m in matches for t in (m.team_a_id, m.team_b_id)}
    cities = dict(Team.objects.filter(pk__in=teams).values_list("pk", "captain_city"))
    rosters = rosters_get(teams=sorted(teams))
    people = _people_of(tournament, teams)
    wanted = {
        (team, person_key(name, cities[team]))
        for team in teams
        for name in [*rosters[team][0], *(s.into for s in rosters[team][1])]
    }
    if not wanted <= people.keys():
        # Players without their person (a tournament made before people were kept,
        # or by a path that skipped them): found now, once.
        seats_sync(tournament=tournament, teams=teams)
        people = _people_of(tournament, teams)
    games = []
    for place, m in matches:
        sides = []
        for side, team in (("A", m.team_a_id), ("B", m.team_b_id)):
            names = roster_played(
                roster_at(*rosters[team], RoundStage(m.stage), m.round),
                side,
                m.forfeit_absent,
            )
            sides.append(
                sorted({people[team, person_key(n, cities[team])] for n in names})
            )
        if not (sides[0] and sides[1]) or set(sides[0]) & set(sides[1]):
            sides = [[], []]
        games.append(_Game(place, m, (sides[0], sides[1]), _outcome(m)))
    return games


def _serialize() -> None:
    """One refresh at a time across every worker: PostgreSQL's advisory lock for
    the transaction (SQLite has one writer already)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_LOCK])


@transaction.atomic
def ratings_refresh(*, since: str = START, sheet: int | None = None) -> int:
    """The stored ratings made what the sheets say from the place `since` on
    (START: everything). Returns how many matches it rated. With `sheet` (the one
    whose confirmation or reopening asked for it), nothing is done when the stored
    ratings already hold that sheet as it is: a refresh that ran meanwhile read it
    (a round's confirmations, queued faster than the worker rates them, are rated by
    the first refresh that reaches back far enough). It reaches back to where the
    stored ratings are behind the sheets in the sheet's tournament (`ratings_behind`:
    a look over one tournament costs milliseconds, over a site of twenty a few
    hundred; the periodic look covers the site), if that is earlier."""
    _serialize()
    behind = None
    if sheet is not None:
        scope = Match.objects.filter(pk=sheet).values_list("tournament", flat=True)
        tournament = scope.first()
        if tournament is not None:  # a gone sheet's task catches up instead
            behind = ratings_behind(tournament=tournament)
    if sheet is not None and _settled(sheet):
        # Its own place needs nothing: only what is behind, if anything is.
        if behind is None:
            return 0
        since = behind
    elif behind is not None:
        since = min(since, behind)
    # A rebuild removes the wishes for one that it reads the sheets after; one
    # written meanwhile (its transaction not committed yet) stays for the next.
    wanted = (
        RebuildWanted.objects.aggregate(last=Max("pk"))["last"]
        if since == START
        else None
    )
    taken_back = RatedGame.objects.filter(position__gte=since)
    touched: set[int] = set()
    for a, b in taken_back.values_list("side_a", "side_b"):
        touched.update(a)
        touched.update(b)
    RatingStep.objects.filter(position__gte=since).delete()
    taken_back.delete()
    parts = since.split("|")
    first = (parts[0], int(parts[1]) if len(parts) > 1 else 0)
    games: list[_Game] = []
    # Counted tournaments only: a draft's sheets, or those of a tournament nobody
    # trusted vouched for, move nobody's rating (counting one, or no longer, rates
    # everything again).
    for tournament in Tournament.objects.filter(COUNTED).order_by("pk"):
        if (tournament_day(tournament), tournament.pk) >= first:
            games += _games(tournament, since)
    games.sort(key=lambda g: g.position)
    earlier = set(
        RatedGame.objects.filter(
            position__lt=since, tournament__in={g.match.tournament_id for g in games}
        ).values_list("match", flat=True)
    )
    if since != START and earlier & {g.match.pk for g in games}:
        # A match rated at another place (its tournament's first day moved): the
        # order changed before `since`, so everything is rated again.
        return ratings_refresh(since=START)
    places = {g.match.pk: g.position for g in games}
    playing = {p for g in games for side in g.sides for p in side}
    touched |= playing
    start = _before(since, touched)
    rated = rating.rate(
        (
            rating.RatedMatch(g.match.pk, g.sides[0], g.sides[1], g.outcome)
            for g in games
            if g.rates
        ),
        start,
    )
    # The bulk path, not bulk_create: a rebuild stores 240,000 steps on a site of
    # twenty 500-team tournaments, and an instance per row was most of its time.
    sides = RatedGame._meta.get_field("side_a")
    rows_insert(
        RatedGame,
        _GAME_COLUMNS,
        (
            (
                g.match.tournament_id,
                g.match.pk,
                g.position,
                g.match.stage,
                g.match.round,
                g.outcome.value,
                sides.get_db_prep_save(g.sides[0], connection),
                sides.get_db_prep_save(g.sides[1], connection),
            )
            for g in games
        ),
    )
    game_of = dict(
        RatedGame.objects.filter(position__gte=since).values_list("match", "pk")
    )
    rows_insert(
        RatingStep,
        _STEP_COLUMNS,
        (
            (
                game_of[step.match],
                step.person,
                places[step.match],
                step.rating.mu,
                step.rating.sigma,
                step.rating.matches,
            )
            for step in rated.steps
        ),
    )
    _now_store(touched, rated.people)
    if wanted is not None:
        RebuildWanted.objects.filter(pk__lte=wanted).delete()
    if since == START:
        RebuildQueue.objects.filter(id=RebuildQueue.ONLY).update(
            rebuilds=F("rebuilds") + 1
        )
    return sum(g.rates for g in games)


def _before(since: str, people: set[int]) -> dict[int, rating.Rating]:
    """Each person's rating just before `since`: their last step before it."""
    if since == START or not people:
        return {}
    found: dict[int, rating.Rating] = {}
    steps = (
        RatingStep.objects.filter(person__in=people, position__lt=since)
        .order_by("person", "-position")
        .values_list("person", "mu", "sigma", "matches")
    )
    for person, mu, sigma, matches in steps:
        if person not in found:
            found[person] = rating.Rating(mu, sigma, matches)
    return found


def _now_store(people: set[int], now: dict[int, rating.Rating]) -> None:
    """Each touched person's rating now, or none when no match of theirs is left."""
    PersonRating.objects.filter(person__in=people).delete()
    existing = set(Person.objects.filter(pk__in=people).values_list("pk", flat=True))
    PersonRating.objects.bulk_create(
        (
            PersonRating(
                person_id=person,
                mu=r.mu,
                sigma=r.sigma,
                matches=r.matches,
                display=r.display,
            )
            for person, r in now.items()
            if person in people and person in existing
        ),
        batch_size=2000,
    )


def ratings_behind(tournament: int | None = None) -> str | None:
    """The first place from which the stored ratings are not what the sheets say,
    as far as two questions tell (over one tournament, or the whole site), or None:
    a confirmed match of a counted tournament that no refresh took (its refresh
    lost), or a match taken that is no longer confirmed or counted, or gone (a
    reopening's refresh lost). A sheet changed and confirmed again is found by its
    own refresh (`_settled`). A rebuild asked for and not done yet (its task lost)
    puts everything behind: START, over one tournament as over the site (a merge
    changes every tournament the person played)."""
    if RebuildWanted.objects.exists():
        return START
    live = Match.objects.filter(
        status=MatchStatus.CONFIRMED,
        tournament__in=Tournament.objects.filter(COUNTED),
    )
    taken = RatedGame.objects.all()
    if tournament is not None:
        live = live.filter(tournament=tournament)
        taken = taken.filter(tournament=tournament)
    # Anti-joins (NOT EXISTS).
    first = taken.filter(~Exists(live.filter(pk=OuterRef("match")))).aggregate(
        first=Min("position")
    )["first"]
    untaken = (
        live.filter(~Exists(RatedGame.objects.filter(match=OuterRef("pk"))))
        .select_related("tournament")
        .only("tournament", "stage", "round", "table")
    )
    places = [match_position(m, tournament_day(m.tournament)) for m in untaken]
    return min([p for p in [first, *places] if p is not None], default=None)


@transaction.atomic
def ratings_catch_up() -> int:
    """A refresh from where the stored ratings are behind the sheets, if they are
    (the worker's beat asks, docs/ratings.md): how many matches it rated."""
    _serialize()
    behind = ratings_behind()
    if behind is None:
        return 0
    return ratings_refresh(since=behind)


def ratings_rebuild() -> int:
    """Every rating computed again from the sheets (START): what a merge, a split or
    a restore asks, and `manage.py ratings_rebuild`."""
    return ratings_refresh(since=START)


def _settled(sheet: int) -> bool:
    """Whether the stored ratings hold `sheet` as it is now: rated with its place,
    sides and outcome while it is confirmed, not rated while it is not. The stored
    ratings from a place on are what the last refresh from there or before read, so
    a sheet they hold as it is needs no refresh of its own."""
    rated = RatedGame.objects.filter(match=sheet).first()
    match = Match.objects.filter(pk=sheet).select_related("tournament").first()
    if (
        match is None
        or match.status != MatchStatus.CONFIRMED
        or not (match.tournament.published and match.tournament.rated)
    ):
        return rated is None
    if rated is None:
        return False
    now = _games(match.tournament, START, only=sheet)
    if not now:
        return False
    (game,) = now
    return (
        rated.position == game.position
        and rated.outcome == game.outcome.value
        and (rated.side_a, rated.side_b) == (game.sides[0], game.sides[1])
    )


def sheet_position(*, match_id: int) -> str | None:
    """Where a sheet stands in the ratings' order (None: it is gone)."""
    match = (
        Match.objects.filter(pk=match_id)
        .select_related("tournament")
        .only("tournament", "stage", "round", "table")
        .first()
    )
    if match is None:
        return None
    return match_position(match, tournament_day(match.tournament))


def rebuild_wanted() -> bool:
    """A rebuild asked for (a merge, a split, a restore, a counted tournament's first
    day moved, a tournament counted or no longer): its wish is kept for the worker's
    beat (`RebuildWanted`), and True when its task is to be sent, which is only when
    none is queued already (`RebuildQueue`: 200 edits cost one rebuild). Run in the
    transaction of what asked: the row it sets is held until that commits, so two
    writers at once queue one task."""
    RebuildWanted.objects.create()
    now = timezone.now()
    stale = now - timedelta(seconds=RebuildQueue.STALE_SECONDS)
    claimed = (
        RebuildQueue.objects.filter(id=RebuildQueue.ONLY)
        .filter(Q(queued_at__isnull=True) | Q(queued_at__lt=stale))
        .update(queued_at=now)
    )
    if claimed:
        return True
    # Its one row, made by the first wish.
    _, made = RebuildQueue.objects.get_or_create(
        id=RebuildQueue.ONLY, defaults={"queued_at": now}
    )
    return made


def rebuild_started() -> None:
    """A rebuild's task begins: from now on a new wish queues the next one (what
    this rebuild reads is already committed, or it waits for the next)."""
    RebuildQueue.objects.filter(id=RebuildQueue.ONLY).update(queued_at=None)
