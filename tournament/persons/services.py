"""Every write of people across tournaments (RULES.md §10; docs/ratings.md, "People").

`seats_sync` gives every name that plays for a team its seat and person, and is run by
every write that changes who plays: a team registered, edited or imported, a
substitute approved, a tournament restored. In a tournament the site does not trust
yet (not rated), a name and city already known elsewhere is a new person with a
suggested match (`NamesakeSuggestion`), never the known person: a creator cannot put
matches into a stranger's history or rating (docs/ratings.md, "What the site
trusts"). A site administrator merges two people or splits one (`person_merge`,
`person_split`), with the history kept, and accepts or dismisses a suggestion;
marking a tournament rated accepts its suggestions (`namesakes_accept`); an organizer
hides a person from public lists (`person_hide`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

from django.db import transaction
from django.db.models import Exists, OuterRef

from ..domain.errors import ConflictError, RuleError, marked
from ..domain.persons import Seat as SeatOf
from ..domain.persons import identify
from ..models import (
    NamesakeSuggestion,
    Person,
    PersonChange,
    Player,
    Seat,
    Substitution,
    Team,
    Tournament,
    account,
)
from .signals import ratings_stale

Prefer = Mapping[tuple[int, str], int]  # (team, key) -> the person it had before


def _names(teams: Iterable[int]) -> dict[int, list[str]]:
    """Each team's names that play: its registered players (by position), then its
    substitutes in (by number)."""
    names: dict[int, list[str]] = defaultdict(list)
    for team, name in Player.objects.filter(team__in=teams).values_list("team", "name"):
        names[team].append(name)
    for team, name in Substitution.objects.filter(team__in=teams).values_list(
        "team", "player_in"
    ):
        names[team].append(name)
    return names


def seats_sync(
    *,
    tournament: Tournament,
    teams: Iterable[int] | None = None,
    prefer: Prefer | None = None,
) -> None:
    """Every name that plays for the teams (every team of the tournament when None)
    has its seat, and a seat whose name no longer plays goes (its person stays).
    A new seat is a person already known by name and city, one not playing for
    another team of the tournament, or a new person (tournament/domain/persons.py);
    in a tournament not rated, only a person known in this tournament alone is
    joined, and a new person whose name and city are known elsewhere gets a
    suggested match. `prefer` keeps the person a seat had before (a restored
    tournament keeps a site administrator's split). Run inside the caller's
    transaction."""
    prefer = prefer or {}
    wanted = Team.objects.filter(tournament=tournament)
    if teams is not None:
        wanted = wanted.filter(pk__in=list(teams))
    cities = dict(wanted.values_list("pk", "captain_city"))
    needed: dict[tuple[int, str], SeatOf] = {}
    for team, names in _names(cities).items():
        for name in names:
            seat = SeatOf(team, name, cities[team])
            needed.setdefault((team, seat.key), seat)
    have = {(s.team_id, s.key): s for s in Seat.objects.filter(team__in=list(cities))}
    gone = [s.pk for k, s in have.items() if k not in needed]
    if gone:
        Seat.objects.filter(pk__in=gone).delete()
    new = [seat for k, seat in needed.items() if k not in have]
    if not new:
        return
    taken = set(
        Seat.objects.filter(team__tournament=tournament).values_list(
            "person", flat=True
        )
    )
    chosen: dict[SeatOf, int] = {}
    preferred = {prefer[s.team, s.key] for s in new if (s.team, s.key) in prefer}
    if preferred:
        # The person this very name of this team had (a merge of two spellings, a
        # split of namesakes, kept), while that person still exists.
        kept = set(Person.objects.filter(pk__in=preferred).values_list("pk", flat=True))
        for seat in new:
            pk = prefer.get((seat.team, seat.key))
            if pk is not None and pk in kept and pk not in taken:
                chosen[seat] = pk
                taken.add(pk)
    rest = [s for s in new if s not in chosen]
    people: dict[str, list[int]] = defaultdict(list)
    elsewhere: dict[str, list[int]] = defaultdict(list)
    known = (
        Person.objects.filter(key__in={s.key for s in rest})
        .exclude(pk__in=taken)
        .order_by("pk")
    )
    if not tournament.rated:
        # Seats in other tournaments: such a person is only suggested.
        known = known.annotate(
            outside=Exists(
                Seat.objects.filter(person=OuterRef("pk")).exclude(
                    team__tournament=tournament
                )
            )
        )
        for pk, key, outside in known.values_list("pk", "key", "outside"):
            (elsewhere if outside else people)[key].append(pk)
    else:
        for pk, key in known.values_list("pk", "key"):
            people[key].append(pk)
    found = identify(rest, people)
    chosen.update(found.known)
    made = Person.objects.bulk_create(
        Person(name=group[0].name, city=group[0].city, key=group[0].key)
        for group in found.new
    )
    suggested: set[int] = set()
    suggestions = []
    for group, person in zip(found.new, made, strict=True):
        chosen.update((seat, person.pk) for seat in group)
        namesake = next(
            (pk for pk in elsewhere.get(group[0].key, ()) if pk not in suggested),
            None,
        )
        if namesake is not None:
            suggested.add(namesake)
            suggestions.append(
                NamesakeSuggestion(
                    person=person, namesake_id=namesake, tournament=tournament
                )
            )
    NamesakeSuggestion.objects.bulk_create(suggestions)
    Seat.objects.bulk_create(
        Seat(team_id=s.team, name=s.name, key=s.key, person_id=chosen[s]) for s in new
    )


def seats_held(*, tournament: Tournament) -> dict[tuple[int, str], int]:
    """Each seat's person, by team and key: what a restore keeps (`prefer`)."""
    return {
        (team, key): person
        for team, key, person in Seat.objects.filter(
            team__tournament=tournament
        ).values_list("team", "key", "person")
    }


def _locked(*pks: int) -> dict[int, Person]:
    """The people, locked in one order (by id) whatever order a request names them
    in, so two crossed merges wait for each other rather than deadlock."""
    return {
        p.pk: p
        for p in Person.objects.select_for_update().filter(pk__in=pks).order_by("pk")
    }


def _gone(person: Person) -> ConflictError:
    """The person was merged into another while this request waited for it."""
    return ConflictError(
        "person_gone",
        marked(
            "%(person)s is no longer a person of this site: a merge made them part "
            "of another meanwhile; reload and look again"
        ),
        person=str(person),
    )


def _seat_record(seats: Iterable[Seat]) -> list[dict]:
    return [
        {
            "id": s.pk,
            "name": s.name,
            "team": s.team_id,
            "tournament": s.team.tournament.slug,
        }
        for s in seats
    ]


@transaction.atomic
def person_merge(*, person: Person, other: int, user) -> Person:
    """The other person's seats become this person's, and the other is no more
    (its history names it). Refused when both played one tournament for two teams:
    one person never plays for two teams of one tournament."""
    if other == person.pk:
        raise RuleError(
            "merge_self",
            marked("a person cannot be merged with themselves"),
            field="other",
        )
    found = _locked(person.pk, other)
    if person.pk not in found:
        raise _gone(person)
    if other not in found:
        raise RuleError(
            "unknown_person",
            marked("there is no person %(other)s to merge"),
            field="other",
            other=other,
        )
    person, merged = found[person.pk], found[other]
    seats = list(Seat.objects.filter(person=merged).select_related("team__tournament"))
    mine = dict(
        Seat.objects.filter(person=person).values_list("team__tournament", "team")
    )
    for seat in seats:
        team = mine.get(seat.team.tournament_id)
        if team == seat.team_id:
            # Two names of one team are two players (docs/ratings.md): as one person,
            # every opponent would be rated against a side a player short.
            raise ConflictError(
                "teammates",
                marked(
                    "both play for %(team)s in %(tournament)s: two players of one "
                    "team are two people"
                ),
                field="other",
                team=seat.team.name,
                tournament=seat.team.tournament.name,
            )
        if team is not None and team != seat.team_id:
            raise ConflictError(
                "two_teams",
                marked(
                    "both played %(tournament)s, for two teams: one person never "
                    "plays for two teams of one tournament"
                ),
                field="other",
                tournament=seat.team.tournament.name,
            )
    Seat.objects.filter(person=merged).update(person=person)
    if merged.hidden and not person.hidden:
        person.hidden = True
        person.save(update_fields=["hidden"])
    PersonChange.objects.create(
        kind=PersonChange.Kind.MERGE,
        person=person,
        other_id=merged.pk,
        other_name=str(merged),
        seats=_seat_record(seats),
        by=account(user),
    )
    PersonChange.objects.filter(person=merged).update(person=person)
    merged.delete()
    ratings_stale.send(sender=Person)
    return person


@transaction.atomic
def person_split(*, person: Person, players: list[int], user) -> Person:
    """The seats `players` (ids of this person's seats) become a new person's:
    undoes a merge, or tells namesakes apart. The person keeps at least one seat."""
    found = _locked(person.pk)
    if person.pk not in found:
        raise _gone(person)
    person = found[person.pk]
    seats = list(
        Seat.objects.filter(person=person)
        .select_related("team__tournament")
        .order_by("pk")
    )
    ids = {s.pk for s in seats}
    strangers = sorted(set(players) - ids)
    if not players or strangers:
        raise RuleError(
            "not_this_person",
            marked("players must be this person's (from the person's teams)"),
            field="players",
        )
    if set(players) == ids:
        raise RuleError(
            "split_all",
            marked("a split leaves the person at least one of their players"),
            field="players",
        )
    moving = [s for s in seats if s.pk in set(players)]
    first = moving[0]
    split = Person.objects.create(
        name=first.name,
        city=first.team.captain_city,
        key=first.key,
        hidden=person.hidden,
    )
    Seat.objects.filter(pk__in=[s.pk for s in moving]).update(person=split)
    PersonChange.objects.create(
        kind=PersonChange.Kind.SPLIT,
        person=person,
        other_id=split.pk,
        other_name=str(split),
        seats=_seat_record(moving),
        by=account(user),
    )
    ratings_stale.send(sender=Person)
    return split


@transaction.atomic
def person_hide(*, person: Person, hidden: bool) -> Person:
    """Hidden from public lists (the people and ratings lists), or shown again;
    their matches still count everywhere."""
    person.hidden = hidden
    person.save(update_fields=["hidden"])
    return person


@transaction.atomic
def namesakes_accept(*, tournament: Tournament, user) -> int:
    """A tournament marked rated: each of its suggested namesakes becomes the person
    suggested (a merge, kept in the history as the marker's), but where both play
    this tournament or one of its teams (the merge is refused: the suggestion stays
    for a site administrator). Returns how many were merged."""
    merged = 0
    for suggestion in list(
        NamesakeSuggestion.objects.filter(tournament=tournament).order_by("pk")
    ):
        try:
            with transaction.atomic():
                person_merge(
                    person=suggestion.namesake, other=suggestion.person_id, user=user
                )
        except RuleError:
            continue
        merged += 1
    return merged


@transaction.atomic
def namesake_accept(*, suggestion: NamesakeSuggestion, user) -> Person:
    """A site administrator says the suggested namesakes are one person: a merge
    into the person known before."""
    return person_merge(
        person=suggestion.namesake, other=suggestion.person_id, user=user
    )


@transaction.atomic
def namesake_dismiss(*, suggestion: NamesakeSuggestion) -> None:
    """A site administrator says the suggested namesakes are two people."""
    NamesakeSuggestion.objects.filter(pk=suggestion.pk).delete()
