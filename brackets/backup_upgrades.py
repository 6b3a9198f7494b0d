"""How a backup written before each of the knockout's migrations since release 0.3.0
is brought forward (tournament/backups/upgrades.py): none changed a row a backup
holds."""

from __future__ import annotations

from tournament.backups.upgrades import register, upgrade

register(
    upgrade("brackets", "0002_verbose_names_plural", why="a name in the admin"),
    upgrade(
        "brackets",
        "0003_seasons",
        why="the site's seasons: a table (and its tournaments) of the site's, made "
        "empty",
    ),
)
