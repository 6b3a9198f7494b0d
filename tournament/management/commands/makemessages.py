"""Django's makemessages, which also collects the words the pure rule modules mark with
`marked` and `marked_plural` (tournament/domain/errors.py, docs/glossary.md): they
import nothing from Django, and their helpers are named apart from Django's."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=marked",
        "--keyword=marked_plural:1,2",
    ]
