"""Pure rules of the knockout: standard library only (seeding, progression, ties)."""
