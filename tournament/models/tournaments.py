"""Tournaments, sections, teams, players, substitutions and people's roles in a
tournament, and what every model file shares (`someone`, `account`).

Every rule SQL can hold is a named constraint; the rules it cannot (a team's section
belongs to the team's tournament, a state listed by one section only) are kept by the
services, which lock the tournament row while they check and write.
"""

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils.translation import pgettext

from ..domain.rulesets import RuleSetCode
from ..domain.sections import USA, Placement
from ..domain.types import Role, RoundStage, TeamStatus, TournamentStatus
from ..words import choices as _choices

STATUS_CHOICES = _choices(TournamentStatus)
ROLE_CHOICES = _choices(Role)  # named in the API's schema (settings: RoleEnum)


def site_time_zone() -> str:
    """A new tournament's time zone: the site's (DJANGO_TIME_ZONE)."""
    return settings.TIME_ZONE


SUBSTITUTIONS_MAX = 10


def someone() -> models.ForeignKey:
    """Who did something; NULL once the user is deleted (records keep what was done)."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )


def account(user) -> AbstractBaseUser | None:
    """The account behind `user` for a `*_by` field: None for a link's holder (a
    table or team link acts with no account), an anonymous visitor, or nobody (a
    file's import). Records name such actors in words (the history's actor_name)."""
    return user if user is not None and user.is_authenticated else None


class Tournament(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60)
    ruleset = models.CharField(
        max_length=20, choices=_choices(RuleSetCode), default=RuleSetCode.INTERNATIONAL
    )
    players_per_team = models.PositiveSmallIntegerField(default=3)
    league_rounds = models.PositiveSmallIntegerField(default=8)
    league_deals = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Empty only for the tables format (rules.md §8).",
    )
    qualifiers = models.PositiveSmallIntegerField(default=24)
    published = models.BooleanField(default=False)
    # Whether its matches count for the site's ratings (docs/ratings.md, "What the
    # site trusts"): marked by a site administrator, or by a trusted creator among
    # its organizers, never by the tournament's other organizers.
    rated = models.BooleanField(
        default=False,
        help_text="Its confirmed matches count for the site's ratings (once "
        "published); marked by a site administrator or a trusted creator.",
    )
    rated_by = someone()
    rated_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(
        max_length=20,
        choices=STATUS_CHOICES,
        default=TournamentStatus.REGISTRATION,
    )
    venue = models.CharField(max_length=200, blank=True)
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    check_in_required = models.BooleanField(
        default=False,
        help_text="The draw takes the teams checked in only (rules.md §9).",
    )
    substitutions_allowed = models.PositiveSmallIntegerField(
        default=1, help_text="Player substitutions per team (rules.md §9)."
    )
    time_zone = models.CharField(
        max_length=64,
        default=site_time_zone,
        help_text="An IANA name (America/New_York): every time the tournament's "
        "pages, printouts and workbook show is in it.",
    )
    home_country = models.CharField(
        max_length=60,
        default=USA,
        help_text="Its captains are placed by city or state/region; everyone else "
        "plays in International (rules.md §5). Normalised: USA, India.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-starts_on", "-created_at"]
        permissions = [
            (
                "rate_tournament",
                "Marks the tournaments they organize rated (a trusted creator)",
            )
        ]
        constraints = [
            models.UniqueConstraint(fields=["slug"], name="tournament_slug_unique"),
            models.CheckConstraint(
                condition=Q(ruleset__in=[c.value for c in RuleSetCode]),
                name="tournament_ruleset_known",
            ),
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in TournamentStatus]),
                name="tournament_status_known",
            ),
            models.CheckConstraint(
                condition=Q(players_per_team__gte=2, players_per_team__lte=4),
                name="tournament_players_per_team_2_4",
            ),
            models.CheckConstraint(
                condition=Q(league_rounds__gte=1, league_rounds__lte=50),
                name="tournament_league_rounds_1_50",
            ),
            models.CheckConstraint(
                # isnull=False too: a CHECK that evaluates to NULL passes in SQL.
                condition=Q(league_deals__isnull=False, league_deals__gte=1)
                & Q(league_deals__lte=99)
                | Q(league_deals__isnull=True, ruleset=RuleSetCode.TABLES),
                name="tournament_league_deals_1_99",
            ),
            models.CheckConstraint(
                condition=Q(qualifiers__gte=2), name="tournament_qualifiers_at_least_2"
            ),
            models.CheckConstraint(
                condition=~Q(name=""), name="tournament_name_present"
            ),
            models.CheckConstraint(
                condition=~Q(time_zone=""), name="tournament_time_zone_present"
            ),
            models.CheckConstraint(
                condition=~Q(home_country=""), name="tournament_home_country_present"
            ),
            models.CheckConstraint(
                condition=Q(substitutions_allowed__lte=SUBSTITUTIONS_MAX),
                name="tournament_substitutions_0_10",
            ),
            models.CheckConstraint(
                condition=Q(starts_on__isnull=True)
                | Q(ends_on__isnull=True)
                | Q(ends_on__gte=F("starts_on")),
                name="tournament_ends_on_or_after_start",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Section(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="sections"
    )
    name = models.CharField(max_length=80)
    states = models.JSONField(default=list, blank=True)
    cities = models.JSONField(default=list, blank=True)
    is_international = models.BooleanField(default=False)

    class Meta:
        ordering = ["is_international", "name"]
        constraints = [
            models.UniqueConstraint(
                Lower("name"), "tournament", name="section_name_once_per_tournament"
            ),
            models.UniqueConstraint(
                fields=["tournament"],
                condition=Q(is_international=True),
                name="section_one_international",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="section_name_present"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def shown_name(self) -> str:
        """The name a page shows: International in the page's language (its stored
        name, and the API's, stay "International": rules.md §5), any other as
        named."""
        if self.is_international:
            return pgettext("section", "International")
        return self.name


class Team(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="teams"
    )
    section = models.ForeignKey(Section, on_delete=models.PROTECT, related_name="teams")
    name = models.CharField(max_length=80)
    captain_name = models.CharField(max_length=80)
    captain_city = models.CharField(max_length=80, blank=True)
    # A US state code for a captain in the USA; the region as written elsewhere
    # (rules.md §5): which of them places the team depends on the home country.
    captain_state = models.CharField(max_length=80, blank=True)
    captain_country = models.CharField(max_length=60)
    placement = models.CharField(max_length=20, choices=_choices(Placement))
    created_at = models.DateTimeField(auto_now_add=True)
    # The tournament day (rules.md §9).
    checked_in_at = models.DateTimeField(null=True, blank=True)
    checked_in_by = someone()
    status = models.CharField(
        max_length=10, choices=_choices(TeamStatus), default=TeamStatus.ACTIVE
    )
    withdrawn_from_round = models.PositiveSmallIntegerField(null=True, blank=True)
    withdrawn_reason = models.CharField(max_length=300, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_by = someone()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                Lower("name"), "tournament", name="team_name_once_per_tournament"
            ),
            models.CheckConstraint(condition=~Q(name=""), name="team_name_present"),
            models.CheckConstraint(
                condition=~Q(captain_name=""), name="team_captain_name_present"
            ),
            models.CheckConstraint(
                condition=Q(placement__in=[p.value for p in Placement]),
                name="team_placement_known",
            ),
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in TeamStatus]),
                name="team_status_known",
            ),
            models.CheckConstraint(
                # Withdrawn exactly when a round and a reason say from when and why.
                condition=Q(
                    status=TeamStatus.WITHDRAWN,
                    withdrawn_from_round__gte=1,
                    withdrawn_at__isnull=False,
                )
                & ~Q(withdrawn_reason="")
                | (
                    ~Q(status=TeamStatus.WITHDRAWN)
                    & Q(withdrawn_from_round__isnull=True, withdrawn_at__isnull=True)
                ),
                name="team_withdrawn_has_round_and_reason",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="players")
    position = models.PositiveSmallIntegerField(help_text="1 is the captain.")
    name = models.CharField(max_length=80)

    class Meta:
        ordering = ["team", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "position"], name="player_position_once_per_team"
            ),
            models.UniqueConstraint(
                Lower("name"), "team", name="player_name_once_per_team"
            ),
            models.CheckConstraint(
                condition=Q(position__gte=1, position__lte=4),
                name="player_position_1_4",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="player_name_present"),
        ]

    def __str__(self) -> str:
        return self.name


class Substitution(models.Model):
    """A player substitution an organizer approved (rules.md §9): who leaves the team,
    who comes in, from which round on, and why. The roster of every match follows
    from the registered players and these (tournament/selectors.py: roster_of)."""

    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="substitutions"
    )
    number = models.PositiveSmallIntegerField(help_text="1 for the team's first.")
    player_out = models.CharField(max_length=80)
    player_in = models.CharField(max_length=80)
    stage = models.CharField(
        max_length=10, choices=_choices(RoundStage), default=RoundStage.LEAGUE
    )
    from_round = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=300)
    approved_by = someone()
    approved_at = models.DateTimeField()

    class Meta:
        ordering = ["team", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "number"], name="substitution_number_once_per_team"
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1, from_round__gte=1),
                name="substitution_numbers_positive",
            ),
            models.CheckConstraint(
                condition=~Q(player_out="") & ~Q(player_in="") & ~Q(reason=""),
                name="substitution_names_and_reason_present",
            ),
            models.CheckConstraint(
                condition=~Q(player_out=F("player_in")),
                name="substitution_players_differ",
            ),
            models.CheckConstraint(
                condition=Q(stage__in=[s.value for s in RoundStage]),
                name="substitution_stage_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.player_in} for {self.player_out}"


class Membership(models.Model):
    """A person's role in one tournament; a captain's names the team."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="memberships"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=20, choices=_choices(Role))
    team = models.ForeignKey(
        Team,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="memberships",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "role", "user"]
        constraints = [
            models.CheckConstraint(
                condition=Q(role__in=[r.value for r in Role]),
                name="membership_role_known",
            ),
            models.CheckConstraint(
                condition=Q(role=Role.CAPTAIN, team__isnull=False)
                | (~Q(role=Role.CAPTAIN) & Q(team__isnull=True)),
                name="membership_team_only_for_captain",
            ),
            models.UniqueConstraint(
                fields=["tournament", "user", "role"], name="membership_role_once"
            ),
            models.UniqueConstraint(
                fields=["team"],
                condition=Q(role=Role.CAPTAIN),
                name="membership_one_captain_per_team",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.role} · {self.tournament}"
