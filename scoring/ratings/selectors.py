"""Every read of people across tournaments and of their ratings (API.md, "People,
seasons and ratings"; docs/ratings.md).

Who sees what: a person is listed when they play in a tournament the viewer sees
(published ones, and those the viewer has a role in) and is not hidden; a site
administrator sees everyone, hidden or not. A person's page shows only the
tournaments the viewer sees.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery

from tournament.accounts.selectors import is_site_administrator
from tournament.domain.persons import person_key
from tournament.models import (
    Membership,
    NamesakeSuggestion,
    Person,
    PersonChange,
    Seat,
    Tournament,
)
from tournament.selectors import tournament_list_visible

from ..domain import ratings as rating
from ..domain import statistics as stats
from ..domain.rules import PenaltyKind
from ..models import PersonRating, RatingStep
from ..statistics.selectors import teams_tallies_list


def _seen_tournaments(user) -> QuerySet[Tournament]:
    return tournament_list_visible(user=user).order_by()


def may_administer_people(user) -> bool:
    return bool(user.is_authenticated) and is_site_administrator(user)


def may_hide(user, person: Person) -> bool:
    """A site administrator, or an organizer of every published tournament the
    person plays in (of every one, while none is published): an organizer who
    registers a namesake in a tournament of his own does not get to hide a player
    of other people's tournaments, and a draft of a stranger's does not stop the
    player's own organizers."""
    if not user.is_authenticated:
        return False
    if may_administer_people(user):
        return True
    played = dict(
        Seat.objects.filter(person=person).values_list(
            "team__tournament", "team__tournament__published"
        )
    )
    scope = {t for t, published in played.items() if published} or set(played)
    organized = set(
        Membership.objects.filter(
            user=user, role="organizer", tournament__in=scope
        ).values_list("tournament", flat=True)
    )
    return bool(scope) and scope <= organized


def person_list(*, user, q: str = "", season: Iterable[int] | None = None):
    """The people the viewer may see, by name: their tournaments, rated matches and
    rating (`rating` is None before a rated match)."""
    seen = _seen_tournaments(user)
    people = Person.objects.filter(
        Exists(Seat.objects.filter(person=OuterRef("pk"), team__tournament__in=seen))
    )
    if not may_administer_people(user):
        people = people.filter(hidden=False)
    if q:
        people = people.filter(name__icontains=q.strip())
    return (
        people.annotate(
            tournament_count=Count(
                "seats__team__tournament",
                filter=Q(seats__team__tournament__in=seen),
                distinct=True,
            )
        )
        .select_related("rating")
        .order_by("name", "pk")
    )


def person_get(*, user, pk: int) -> Person | None:
    """The person, if the viewer may see them (as person_list; an organizer who
    may hide them sees them hidden too)."""
    person = person_list(user=user).filter(pk=pk).first()
    if person is None and user.is_authenticated:
        hidden = Person.objects.filter(pk=pk, hidden=True).select_related("rating")
        found = hidden.first()
        if found is not None and may_hide(user, found):
            found.tournament_count = (
                Seat.objects.filter(person=found)
                .values("team__tournament")
                .distinct()
                .count()
            )
            return found
    return person


def rating_of(row: PersonRating | None) -> rating.Rating | None:
    if row is None:
        return None
    return rating.Rating(row.mu, row.sigma, row.matches)


@dataclass(frozen=True)
class Played:
    """A seat of the person: the tournament, the team and the name played under."""

    seat: int
    tournament: Tournament
    team: int
    team_name: str
    name: str
    key: str
    city: str  # the team's captain's: what the seat's key is made with


def person_seats(*, user, person: Person) -> list[Played]:
    """The person's seats in tournaments the viewer sees, newest tournament first."""
    seen = _seen_tournaments(user)
    seats = (
        Seat.objects.filter(person=person, team__tournament__in=seen)
        .select_related("team__tournament")
        .order_by("-team__tournament__starts_on", "-team__tournament__pk", "pk")
    )
    return [
        Played(
            s.pk,
            s.team.tournament,
            s.team_id,
            s.team.name,
            s.name,
            s.key,
            s.team.captain_city,
        )
        for s in seats
    ]


def person_statistics(*, seats: list[Played]) -> stats.Figures:
    """What the person bid, over every seat given: the contracts they won the
    auction of, as a tournament's player row sums them (one query, however many
    tournaments)."""
    total = stats.Tally(0)
    keys = {(s.team, s.key) for s in seats}
    cities = {s.team: s.city for s in seats}
    for tally in teams_tallies_list(teams=sorted(cities)):
        if (
            tally.bidder
            and (tally.team, person_key(tally.bidder, cities[tally.team])) in keys
        ):
            total = total.plus(tally)
    return stats.figures_of(total)


@dataclass(frozen=True)
class Step:
    """The person's rating after a match: where, against whom, and the result."""

    tournament: Tournament
    match: int
    stage: str
    round: int
    team: str
    opponent: str
    result: str  # "won", "lost", "tie"
    rating: rating.Rating
    side: str = "A"  # the person's side of the match
    tally: tuple[int, ...] = ()  # the sheet's stored tally (Match.tally)


def rating_history(*, user, person: Person) -> list[Step]:
    """The person's rating after each rated match, in the ratings' order, in
    tournaments the viewer sees (two queries)."""
    from ..models import Match

    seen = _seen_tournaments(user)
    steps = list(
        RatingStep.objects.filter(person=person, game__tournament__in=seen)
        .select_related("game__tournament")
        .order_by("position")
    )
    matches = {
        m.pk: m
        for m in Match.objects.filter(pk__in=[s.game.match for s in steps])
        .select_related("team_a", "team_b")
        .only("team_a__name", "team_b__name", "winner", "tally")
    }
    history = []
    for step in steps:
        game = step.game
        match = matches.get(game.match)
        if match is None:
            continue
        mine = "A" if person.pk in game.side_a else "B"
        team, opponent = (match.team_a, match.team_b)
        if mine == "B":
            team, opponent = opponent, team
        result = (
            "tie"
            if game.outcome == "tie"
            else ("won" if game.outcome == mine else "lost")
        )
        history.append(
            Step(
                game.tournament,
                game.match,
                game.stage,
                game.round,
                team.name,
                opponent.name,
                result,
                rating.Rating(step.mu, step.sigma, step.matches),
                mine,
                tuple(match.tally or ()),
            )
        )
    return history


@dataclass(frozen=True)
class RatingRow:
    rank: int
    person: Person
    rating: rating.Rating


def rating_list(*, user, tournaments: Iterable[int] | None = None) -> list[RatingRow]:
    """People with a rated match, best first (the display, then the name); with
    `tournaments` (a season's), those who played one of them, rated by every match
    up to now. Equal displays share a rank."""
    people = person_list(user=user).filter(rating__isnull=False)
    if tournaments is not None:
        people = people.filter(seats__team__tournament__in=list(tournaments)).distinct()
    rows = sorted(
        people,
        key=lambda p: (-p.rating.display, p.name.casefold(), p.pk),
    )
    ranked: list[RatingRow] = []
    for i, person in enumerate(rows):
        rank = i + 1
        if ranked and ranked[-1].rating.display == person.rating.display:
            rank = ranked[-1].rank
        ranked.append(RatingRow(rank, person, rating_of(person.rating)))
    return ranked


def person_changes(*, person: Person) -> QuerySet[PersonChange]:
    return PersonChange.objects.filter(person=person).order_by("-at", "-pk")


@dataclass(frozen=True)
class TournamentRating:
    """A player's rating over one tournament: before its first match, after its
    last, and how many of its matches rated."""

    team: int
    name: str
    person: int
    before: rating.Rating
    after: rating.Rating
    matches: int


def tournament_ratings(*, tournament: Tournament) -> list[TournamentRating]:
    """Everyone who played a rated match of the tournament, best rating after it
    first (three queries, whatever the size)."""
    steps = list(
        RatingStep.objects.filter(game__tournament=tournament)
        .order_by("person", "position")
        .values_list("person", "position", "mu", "sigma", "matches")
    )
    if not steps:
        return []
    first = min(position for _, position, *_ in steps)
    after: dict[int, rating.Rating] = {}
    count: dict[int, int] = defaultdict(int)
    for person, _, mu, sigma, matches in steps:
        after[person] = rating.Rating(mu, sigma, matches)
        count[person] += 1
    earlier = RatingStep.objects.filter(
        person=OuterRef("pk"), position__lt=first
    ).order_by("-position")
    before = {
        pk: rating.Rating(mu, sigma, matches) if mu is not None else rating.NEWCOMER
        for pk, mu, sigma, matches in Person.objects.filter(pk__in=list(after))
        .annotate(
            before_mu=Subquery(earlier.values("mu")[:1]),
            before_sigma=Subquery(earlier.values("sigma")[:1]),
            before_matches=Subquery(earlier.values("matches")[:1]),
        )
        .values_list("pk", "before_mu", "before_sigma", "before_matches")
    }
    seats = {
        person: (team, name)
        for person, team, name in Seat.objects.filter(
            team__tournament=tournament, person__in=list(after)
        )
        .order_by("-pk")
        .values_list("person", "team", "name")
    }
    rows = [
        TournamentRating(*seats[p], p, before[p], after[p], count[p])
        for p in after
        if p in seats
    ]
    rows.sort(key=lambda r: (-r.after.display, r.name.casefold(), r.person))
    return rows


def person_kallakali(history: list[Step]) -> tuple[int, int]:
    """Kallakali in the matches the person played: (caught by his side, his side
    caught), from each sheet's stored tally (no deal is read)."""
    caught = suffered = 0
    for step in history:
        if not step.tally:
            continue
        _, _, penalties_a, penalties_b = stats.sheet_tally_read(step.tally)
        mine, theirs = (
            (penalties_a, penalties_b)
            if step.side == "A"
            else (penalties_b, penalties_a)
        )
        suffered += mine.get(PenaltyKind.KALLAKALI.value, 0)
        caught += theirs.get(PenaltyKind.KALLAKALI.value, 0)
    return caught, suffered


def namesake_suggestions() -> QuerySet[NamesakeSuggestion]:
    """The suggested matches waiting for a site administrator (docs/ratings.md,
    "What the site trusts"), oldest first, each with both people and the
    tournament that brought the new one."""
    return NamesakeSuggestion.objects.select_related(
        "person", "namesake", "tournament"
    ).order_by("created_at", "pk")
