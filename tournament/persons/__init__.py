"""People across tournaments: who each player is, merges, splits (docs/ratings.md)."""
