"""Django's password rules in the pages' language. Django's own Malayalam catalogue
spells these three sentences' apostrophe another way, and has no "too short" at
all, so the password pages showed them in English; they are marked here for the
site's catalogue (locale/ml/LC_MESSAGES/django.po), which Django reads before its
own (LOCALE_PATHS).
Nothing imports this module: it exists for `make messages`."""

from django.utils.translation import gettext_noop, ngettext

PASSWORD_RULES = (
    gettext_noop(
        "Your password can’t be too similar to your other personal information."
    ),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
)


def _too_short(length: int) -> tuple[str, str]:
    """The minimum length's refusal and help, as MinimumLengthValidator says them
    (never called: `ngettext` here is what `make messages` reads)."""
    return (
        ngettext(
            "This password is too short. It must contain at least %d character.",
            "This password is too short. It must contain at least %d characters.",
            length,
        ),
        ngettext(
            "Your password must contain at least %(min_length)d character.",
            "Your password must contain at least %(min_length)d characters.",
            length,
        ),
    )
