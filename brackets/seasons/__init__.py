"""A season: tournaments grouped, standings of players and teams (docs/ratings.md)."""
