"""People's accounts and roles (docs/people.md): the roles in a tournament and the
site's standing (tournament creators, site administrators), given directly or by an
invitation link, and the pages and API that manage them.

invitations.py  the one invitation flow both kinds use: a one-time link made, mailed,
                accepted once, withdrawn or expired (its key kept as a digest)
users.py        usernames and the new accounts an accepted invitation makes
services.py     every write: a tournament's roles and invitations, the site's
                standing and its invitations
selectors.py    every read of them
forms.py, views.py, apis.py   the People and Site administration pages, the
                invitation pages, the site's API (a tournament's members' API is
                tournament/apis.py's)
password_words.py   Django's password rules marked for the catalogue
"""
