"""The site's own people: tournament creators and site administrators, and the
invitations that make them (docs/people.md)."""
