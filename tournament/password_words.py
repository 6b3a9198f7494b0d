"""Django's password rules in the pages' language. Django's own Malayalam catalogue
spells these three sentences' apostrophe another way, so the password pages showed
them in English; they are marked here for the site's catalogue
(locale/ml/LC_MESSAGES/django.po), which Django reads before its own (LOCALE_PATHS).
Nothing imports this module: it exists for `make messages`."""

from django.utils.translation import gettext_noop

PASSWORD_RULES = (
    gettext_noop(
        "Your password can’t be too similar to your other personal information."
    ),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
)
