"""Table and team links, in one place: making and renewing them (`services.py`), the
organizer's list and printed cards, the link's own pages, its QR code and the API
(docs/links.md). What a link reaches among the sheets is the sheets' own
(scoring/sheets/reach.py), which the sheets' API also asks; how a request carrying a
link is authenticated is the web platform's (tournament/web/links.py)."""
