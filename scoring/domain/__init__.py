"""Pure rules of scoring: standard library only (deal scoring, penalties, standings)."""
