"""Who a player is across tournaments (RULES.md §10, tournament/domain/persons.py)."""

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from tournament.domain.persons import Seat, identify, person_key

NAMES = ["Anil Varghese", "anil  varghese", "ANIL VARGHESE ", "Joseph Mathew", "ബിജു"]
CITIES = ["Dallas", "dallas", "Kochi"]
SEATS = st.builds(
    Seat, st.integers(1, 6), st.sampled_from(NAMES), st.sampled_from(CITIES)
)
PEOPLE = st.dictionaries(
    st.sampled_from(sorted({person_key(n, c) for n in NAMES for c in CITIES})),
    st.lists(st.integers(1, 20), min_size=1, max_size=3, unique=True).map(sorted),
)


def test_case_spaces_and_unicode_forms_aside_one_name_and_city_is_one_key():
    assert person_key("Anil  Varghese ", "DALLAS") == person_key(
        "anil varghese", "dallas"
    )
    assert person_key("Anil Varghese", "Dallas") != person_key("Anil Varghese", "Kochi")
    assert person_key("Anil Varghese", "Dallas") != person_key("Anil Varghes", "Dallas")
    composed = "José Kurian"  # é as one letter; NFD writes it as e and an accent
    assert unicodedata.normalize("NFD", composed) != composed
    assert person_key(unicodedata.normalize("NFD", composed), "Kochi") == person_key(
        composed, "Kochi"
    )


def _person_of(identified):
    """Each seat's person: a known id, or ("new", n) for the n-th new person."""
    found = dict(identified.known)
    for n, group in enumerate(identified.new):
        for seat in group:
            found[seat] = ("new", n)
    return found


@given(st.lists(SEATS, max_size=20), PEOPLE, st.randoms())
def test_every_seat_is_one_person_and_nobody_plays_for_two_teams(seats, people, rnd):
    identified = identify(seats, people)
    found = _person_of(identified)
    assert set(found) == set(seats)
    assert not set(identified.known) & {s for g in identified.new for s in g}
    teams_of = {}
    for seat, person in found.items():
        teams_of.setdefault(person, set()).add(seat.team)
    assert all(len(teams) == 1 for teams in teams_of.values())
    # One team's seats of one key are one person.
    by_team_key = {}
    for seat, person in found.items():
        by_team_key.setdefault((seat.team, seat.key), set()).add(person)
    assert all(len(persons) == 1 for persons in by_team_key.values())
    # A known person is one with the seat's key; a new one only when each person of
    # that key was taken (a merged person may have two keys, and play for one team).
    for seat, person in identified.known.items():
        assert person in people[seat.key]
    for group in identified.new:
        assert set(people.get(group[0].key, ())) <= set(identified.known.values())
    # The order the seats come in changes nothing.
    shuffled = list(seats)
    rnd.shuffle(shuffled)
    assert _person_of(identify(shuffled, people)) == found


def test_the_same_players_a_year_on_are_the_same_people():
    last_year = [Seat(1, "Anil Varghese", "Dallas"), Seat(1, "Joseph Mathew", "Dallas")]
    first = identify(last_year, {})
    assert first.known == {} and len(first.new) == 2
    people = {group[0].key: [n] for n, group in enumerate(first.new, start=100)}
    this_year = [
        Seat(7, "anil varghese", "DALLAS"),
        Seat(7, "Joseph Mathew", "Kochi"),  # another city: another person
        Seat(8, "Anil Varghese", "Dallas"),  # a namesake on another team
    ]
    again = identify(this_year, people)
    assert again.known == {Seat(7, "anil varghese", "DALLAS"): 100}
    assert [[s.team for s in g] for g in again.new] == [[7], [8]]


def test_people_split_by_an_administrator_are_taken_oldest_first():
    key = person_key("Anil Varghese", "Dallas")
    seats = [Seat(3, "Anil Varghese", "Dallas"), Seat(4, "Anil Varghese", "Dallas")]
    assert identify(seats, {key: [11, 42]}).known == {seats[0]: 11, seats[1]: 42}
