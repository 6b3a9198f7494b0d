"""The API of people across tournaments (API.md, "People, seasons and ratings";
docs/ratings.md): the people list and a person's career, rating history and
statistics; a site administrator's merges and splits; an organizer hides a person.

Interfaces only: check the input's shape and the caller's standing, call one service
or selector, render.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from tournament.models import Person, PersonChange
from tournament.persons import services
from tournament.web.api import ID_MAX, ReadOnlyOrAuthenticated

from ..domain import ratings as rating
from ..statistics.apis import ByValueOutput, by_value_data, figures_data
from . import selectors

ONLY_ADMINISTRATORS = (
    "Only the site's administrators merge and split people (a superuser is one)."
)
ONLY_ORGANIZERS = (
    "Only a site administrator, or an organizer of a tournament this person plays "
    "in, hides a person."
)


class RatingOutput(serializers.Serializer):
    display = serializers.IntegerField(
        help_text="The public figure: 1000 + 40 × (mu − 3 sigma); a newcomer 1000."
    )
    uncertainty = serializers.IntegerField(help_text="± this much: 40 × 3 sigma.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    matches = serializers.IntegerField(help_text="Rated matches.")
    provisional = serializers.BooleanField(help_text="Fewer than 10 rated matches.")


def rating_data(figure: rating.Rating | None) -> dict[str, Any] | None:
    if figure is None:
        return None
    return {
        "display": figure.display,
        "uncertainty": figure.uncertainty,
        "mu": figure.mu,
        "sigma": figure.sigma,
        "matches": figure.matches,
        "provisional": figure.provisional,
    }


class PersonOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    city = serializers.CharField()
    hidden = serializers.BooleanField(
        help_text="Left out of public lists by an organizer; matches still count."
    )
    tournaments = serializers.IntegerField(help_text="How many tournaments.")
    matches = serializers.IntegerField(help_text="Rated matches.")
    rating = RatingOutput(allow_null=True, help_text="null before a rated match.")


def person_data(person: Person) -> dict[str, Any]:
    figure = selectors.rating_of(getattr(person, "rating", None))
    return {
        "id": person.pk,
        "name": person.name,
        "city": person.city,
        "hidden": person.hidden,
        "tournaments": getattr(person, "tournament_count", 0),
        "matches": figure.matches if figure else 0,
        "rating": rating_data(figure),
    }


class PlayedOutput(serializers.Serializer):
    player = serializers.IntegerField(
        help_text="This seat's id: what a split names in `players`."
    )
    tournament = serializers.CharField(help_text="The tournament's slug.")
    tournament_name = serializers.CharField()
    team = serializers.IntegerField()
    team_name = serializers.CharField()
    name = serializers.CharField(help_text="The name played under.")


class RatingStepOutput(serializers.Serializer):
    tournament = serializers.CharField(help_text="The tournament's slug.")
    match = serializers.IntegerField()
    stage = serializers.CharField()
    round = serializers.IntegerField()
    team = serializers.CharField(help_text="The person's team's name.")
    opponent = serializers.CharField()
    result = serializers.ChoiceField(choices=["won", "lost", "tie"])
    display = serializers.IntegerField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()


class PersonChangeOutput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=PersonChange.Kind.choices)
    other = serializers.IntegerField(source="other_id")
    other_name = serializers.CharField()
    players = serializers.IntegerField(help_text="How many seats moved.")
    at = serializers.DateTimeField()


class PersonStatisticsOutput(ByValueOutput):
    kallakali_caught = serializers.IntegerField(
        help_text="Kallakali his side caught, in the matches he played."
    )
    kallakali_suffered = serializers.IntegerField(
        help_text="Times his side was caught, in the matches he played."
    )


class PersonDetailOutput(PersonOutput):
    teams = PlayedOutput(many=True)
    statistics = PersonStatisticsOutput(
        help_text="What the person bid, over every tournament (as a tournament's "
        "player row), and the kallakali of the matches he played."
    )
    rating_history = RatingStepOutput(many=True)
    changes = PersonChangeOutput(
        many=True,
        help_text="Merges and splits, newest first (site administrators only; empty "
        "for others).",
    )


def person_detail_data(user, person: Person) -> dict[str, Any]:
    seats = selectors.person_seats(user=user, person=person)
    figures = selectors.person_statistics(seats=seats)
    history = selectors.rating_history(user=user, person=person)
    caught, suffered = selectors.person_kallakali(history)
    return {
        **person_data(person),
        "teams": [
            {
                "player": s.seat,
                "tournament": s.tournament.slug,
                "tournament_name": s.tournament.name,
                "team": s.team,
                "team_name": s.team_name,
                "name": s.name,
            }
            for s in seats
        ],
        "statistics": {
            **figures_data(figures),
            "by_value": by_value_data(figures),
            "kallakali_caught": caught,
            "kallakali_suffered": suffered,
        },
        "rating_history": [
            {
                "tournament": step.tournament.slug,
                "match": step.match,
                "stage": step.stage,
                "round": step.round,
                "team": step.team,
                "opponent": step.opponent,
                "result": step.result,
                "display": step.rating.display,
                "mu": step.rating.mu,
                "sigma": step.rating.sigma,
            }
            for step in history
        ],
        "changes": [
            {
                "kind": c.kind,
                "other_id": c.other_id,
                "other_name": c.other_name,
                "players": len(c.seats),
                "at": c.at,
            }
            for c in (
                selectors.person_changes(person=person)
                if selectors.may_administer_people(user)
                else ()
            )
        ],
    }


class PersonListApi(GenericAPIView):
    """People across tournaments, by name; `q` finds a part of a name. People hidden
    by an organizer are left out, but for site administrators."""

    permission_classes = [ReadOnlyOrAuthenticated]
    serializer_class = PersonOutput
    queryset = Person.objects.none()  # for the schema; the selector reads

    class FilterSerializer(serializers.Serializer):
        q = serializers.CharField(
            required=False, max_length=80, help_text="A part of the name."
        )

    @extend_schema(
        operation_id="person_list",
        parameters=[FilterSerializer],
        responses=PersonOutput(many=True),
    )
    def get(self, request):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        people = selectors.person_list(user=request.user, **filters.validated_data)
        page = self.paginate_queryset(people)
        return self.get_paginated_response([person_data(p) for p in page])


def _person(request, pk: int) -> Person:
    person = selectors.person_get(user=request.user, pk=pk)
    if person is None:
        raise Http404
    return person


class PersonDetailApi(APIView):
    """One person: every team they played for, their statistics over every
    tournament, their rating after each rated match, and the merges and splits that
    made them. PATCH `hidden` hides them from public lists (an organizer of a
    tournament they play in, or a site administrator)."""

    permission_classes = [ReadOnlyOrAuthenticated]

    class InputSerializer(serializers.Serializer):
        hidden = serializers.BooleanField()

    @extend_schema(operation_id="person_get", responses=PersonDetailOutput)
    def get(self, request, pk: int):
        return Response(person_detail_data(request.user, _person(request, pk)))

    @extend_schema(
        operation_id="person_update",
        request=InputSerializer,
        responses=PersonDetailOutput,
    )
    def patch(self, request, pk: int):
        person = _person(request, pk)
        if not selectors.may_hide(request.user, person):
            raise exceptions.PermissionDenied(ONLY_ORGANIZERS)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.person_hide(person=person, hidden=data.validated_data["hidden"])
        return Response(person_detail_data(request.user, _person(request, pk)))


class SiteAdministratorsOnly(IsAuthenticated):
    message = ONLY_ADMINISTRATORS

    def has_permission(self, request, view) -> bool:
        if not super().has_permission(request, view):
            return False
        if not selectors.may_administer_people(request.user):
            raise exceptions.PermissionDenied(ONLY_ADMINISTRATORS)
        return True


class PersonMergeApi(APIView):
    """The other person's players become this person's (site administrators); the
    other person is no more, and the history says so. Every rating is computed
    again. Refused (409 `two_teams`) when both played one tournament for two teams."""

    permission_classes = [SiteAdministratorsOnly]

    class InputSerializer(serializers.Serializer):
        other = serializers.IntegerField(
            min_value=1, max_value=ID_MAX, help_text="The person merged in."
        )

    @extend_schema(
        operation_id="person_merge",
        request=InputSerializer,
        responses=PersonDetailOutput,
    )
    def post(self, request, pk: int):
        person = _person(request, pk)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.person_merge(
            person=person, other=data.validated_data["other"], user=request.user
        )
        return Response(person_detail_data(request.user, _person(request, pk)))


class NamesakeSuggestionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    person = PersonOutput(help_text="The new person, of an unrated tournament.")
    namesake = PersonOutput(help_text="The person known before, by name and city.")
    tournament = serializers.CharField(help_text="The new person's tournament (slug).")
    created_at = serializers.DateTimeField()


def suggestion_data(suggestion) -> dict[str, Any]:
    return {
        "id": suggestion.pk,
        "person": person_data(suggestion.person),
        "namesake": person_data(suggestion.namesake),
        "tournament": suggestion.tournament.slug,
        "created_at": suggestion.created_at,
    }


class NamesakeSuggestionListApi(GenericAPIView):
    """Suggested matches (site administrators): a player of a tournament not rated
    whose name and city are a known person's is a new person until a site
    administrator accepts (a merge) or dismisses the match; marking the tournament
    rated accepts its own (docs/ratings.md, "What the site trusts")."""

    permission_classes = [SiteAdministratorsOnly]
    serializer_class = NamesakeSuggestionOutput

    def get_queryset(self):
        return selectors.namesake_suggestions()

    @extend_schema(
        operation_id="namesake_suggestion_list",
        responses=NamesakeSuggestionOutput(many=True),
    )
    def get(self, request):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response([suggestion_data(s) for s in page])


def _suggestion(pk: int):
    found = selectors.namesake_suggestions().filter(pk=pk).first()
    if found is None:
        raise Http404("No suggested match has this id.")
    return found


class NamesakeAcceptApi(APIView):
    """The two are one person (site administrators): the new person is merged into
    the one known before, as a merge is (409 `two_teams` or `teammates` when they
    cannot be one). The answer is the person they are now."""

    permission_classes = [SiteAdministratorsOnly]

    @extend_schema(
        operation_id="namesake_suggestion_accept",
        request=None,
        responses=PersonDetailOutput,
    )
    def post(self, request, pk: int):
        person = services.namesake_accept(suggestion=_suggestion(pk), user=request.user)
        return Response(person_detail_data(request.user, _person(request, person.pk)))


class NamesakeDismissApi(APIView):
    """The two are two people (site administrators): the suggestion goes, both
    people stay."""

    permission_classes = [SiteAdministratorsOnly]

    @extend_schema(
        operation_id="namesake_suggestion_dismiss", request=None, responses={204: None}
    )
    def post(self, request, pk: int):
        services.namesake_dismiss(suggestion=_suggestion(pk))
        return Response(status=204)


class PersonSplitApi(APIView):
    """These players (seat ids from the person's `teams`) become a new person's
    (site administrators): undoes a merge or tells namesakes apart. The answer is
    the new person."""

    permission_classes = [SiteAdministratorsOnly]

    class InputSerializer(serializers.Serializer):
        players = serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=ID_MAX),
            min_length=1,
            max_length=500,
            help_text="Seat ids, from the person's `teams`.",
        )

    @extend_schema(
        operation_id="person_split",
        request=InputSerializer,
        responses={201: PersonDetailOutput},
    )
    def post(self, request, pk: int):
        person = _person(request, pk)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        split = services.person_split(
            person=person, players=data.validated_data["players"], user=request.user
        )
        return Response(
            person_detail_data(request.user, _person(request, split.pk)), status=201
        )
