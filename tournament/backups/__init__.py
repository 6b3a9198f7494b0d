"""Backups (docs/backups.md): of one tournament or some of its sheets, kept in the
database and taken before the steps an organizer cannot undo by hand (`archive`,
`services`); and of the whole site, by hand, to a file (`site`)."""
