"""factory-boy factories. Rows made here skip the services on purpose (fast setup);
tests of rules go through the services and the API."""

import factory
from django.contrib.auth import get_user_model

from tournament.domain.sections import Placement
from tournament.domain.types import Role
from tournament.models import Membership, Player, Section, Team, Tournament
from tournament.persons.services import seats_sync


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")

    @factory.post_generation
    def password(self, create, extracted, **kwargs):
        # get_or_create may return an existing user: keep its password (and sessions).
        if self.has_usable_password() and not extracted:
            return
        self.set_password(extracted or "pw-for-tests-56")
        if create:
            self.save(update_fields=["password"])


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Tournament {n}")
    slug = factory.Sequence(lambda n: f"tournament-{n}")
    published = True
    # A factory's tournament is one the site trusts (rated) when it is published:
    # the tests of what the site does not trust say rated=False.
    rated = factory.SelfAttribute("published")
    league_deals = 18

    @factory.post_generation
    def international(self, create, extracted, **kwargs):
        if create:
            Section.objects.create(
                tournament=self, name="International", is_international=True
            )


class SectionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Section

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"Section {n}")
    states = factory.LazyFunction(list)
    cities = factory.LazyFunction(list)


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Team
        skip_postgeneration_save = True

    section = factory.SubFactory(SectionFactory)
    tournament = factory.SelfAttribute("section.tournament")
    name = factory.Sequence(lambda n: f"Team {n}")
    captain_name = factory.Sequence(lambda n: f"Captain {n}")
    captain_city = "Edison"
    captain_state = "NJ"
    captain_country = "USA"
    placement = Placement.STATE

    @factory.post_generation
    def roster(self, create, extracted, **kwargs):
        if create:
            names = [self.captain_name, f"{self.name} two", f"{self.name} three"]
            Player.objects.bulk_create(
                Player(team=self, position=i, name=n) for i, n in enumerate(names, 1)
            )
            # Each player's person, as every service that writes players finds it.
            seats_sync(tournament=self.tournament, teams=[self.pk])


def member(tournament, role: Role, username: str | None = None, team=None):
    user = UserFactory(username=username) if username else UserFactory()
    Membership.objects.create(tournament=tournament, user=user, role=role, team=team)
    return user
