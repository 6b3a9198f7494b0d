"""Table and team links at work: what each reaches, its pages, and the organizer's
list, renewal and printed cards (docs/links.md). The link itself, its key and how a
request carries it are tournament/links."""
