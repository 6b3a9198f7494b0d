"""A tournament's people: roles, and invitations by link (docs/people.md)."""
