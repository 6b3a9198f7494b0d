"""How a backup written before each of the tournament app's migrations since release
0.3.0 is brought forward (tournament/backups/upgrades.py): the columns each added,
with the value it gave the rows there were then, and its data migration replayed.
auth's and authtoken's migrations would be listed here too, the backup's format
being this app's: none has come since 0.3.0."""

from __future__ import annotations

from .backups.upgrades import Add, Loaded, Replay, Tables, Written, register, upgrade
from .models import Player, Tournament, site_time_zone
from .persons.services import seats_sync

TOURNAMENT = "tournament.tournament"


def _published_count_as_rated(tables: Tables) -> None:
    """0012's data migration: every tournament published counts as rated, as it
    did before (a restore keeps the site's own mark and an import starts unrated,
    services.py; a whole site's restore takes the file's)."""
    tables.values_set(
        TOURNAMENT,
        "rated",
        [published is True for published in tables.values(TOURNAMENT, "published")],
    )


def _seats_found(written: Written) -> None:
    """What the first `migrate` after 0011 did (scoring/ratings/receivers.py,
    catch_up): each player of a tournament found their person. A tournament's
    restore or import does it by itself (services.py); a whole site's restore of an
    earlier release's file, here."""
    if not written.site:
        return
    unseated = (
        Player.objects.filter(
            team__tournament__in=written.ids.get(TOURNAMENT, []),
            team__seats__isnull=True,
        )
        .values_list("team__tournament", flat=True)
        .distinct()
    )
    for tournament in Tournament.objects.filter(pk__in=list(unseated)).order_by("pk"):
        seats_sync(tournament=tournament)


register(
    upgrade(
        "tournament",
        "0008_tournament_time_zone",
        # A callable default: Django gave every tournament there was the site's
        # zone (DJANGO_TIME_ZONE), read once, as this site's is here.
        Add(TOURNAMENT, "time_zone", once=site_time_zone),
    ),
    upgrade(
        "tournament",
        "0009_site_invitations",
        why="two tables of the site's (invitations that make a creator or an "
        "administrator, the password reset throttle's count), empty when made",
    ),
    upgrade("tournament", "0010_verbose_names_plural", why="a name in the admin"),
    upgrade(
        "tournament",
        "0011_people",
        # The tables of people, seats and their merges were made empty; the first
        # migrate after them found every player's person.
        Loaded(_seats_found),
    ),
    upgrade(
        "tournament",
        "0012_trusted_people",
        Add(TOURNAMENT, "rated", value=False),
        Add(TOURNAMENT, "rated_at", value=None),
        Add(TOURNAMENT, "rated_by_id", value=None),
        Replay(_published_count_as_rated),
        # Its namesake suggestions: a table of the site's, made empty.
    ),
    upgrade(
        "tournament",
        "0013_tournament_home_country",
        # Every tournament was at home in the USA. The captains' states (two letters
        # then) fit the wider column, and the checks it removed only loosen.
        Add(TOURNAMENT, "home_country", value="USA"),
    ),
    upgrade(
        "tournament",
        "0014_league_models_to_scoring",
        why="state only: the league's and the desk's tables, and their rows, move "
        "to scoring's labels with scoring 0017, whose upgrade moves them",
    ),
)
