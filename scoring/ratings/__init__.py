"""Players' ratings across tournaments: stored, kept up to date by the worker as
sheets are confirmed, rebuilt from the sheets (docs/ratings.md)."""
