"""Errors of the game's rules, with a code and parameters, and a readable message.

One DRF exception handler (tournament/web/api.py) turns a `RuleError` into a 400
answer, 409 for a `ConflictError` or 403 for a `ForbiddenError`, naming the field when
the error has one. Nothing here knows about HTTP; the code and the parameters are what
tests and clients can rely on.
"""

from __future__ import annotations


class Words(str):
    """English words marked for translation, as a refusal says them: the text is the
    English, `template` the marked words with a `%(name)s` hole for each of `params`
    (which may be `Words` in turn). The API says the text; the pages translate the
    template and its parameters (tournament/words.py, docs/glossary.md)."""

    template: str
    params: dict[str, object]
    # Words that change with a number (`marked_plural`): both English forms and the
    # number.
    plural: tuple[str, str, int] | None = None


def marked(text: str) -> Words:
    """Marks words for the Malayalam catalogue: `make messages` collects every string
    given to a function of this name (the project's makemessages adds it to
    xgettext's keywords). Plain Python: the rules import nothing from Django, and the
    words stay English until a page translates them. Named apart from Django's
    `gettext_noop`, which returns a plain string: the two never stand for each other."""
    words = Words(text)
    words.template, words.params = text, {}
    return words


def marked_plural(singular: str, plural: str, count: int) -> Words:
    """Marks words that change with a number (`make messages` collects both forms as
    one plural entry): the English form for `count`, which a page says in its own
    language with Django's ngettext (tournament/words.py). Plain Python, as `marked`;
    named apart from Django's `ngettext`, which translates at once."""
    chosen = singular if count == 1 else plural
    words = Words(chosen)
    words.template, words.params = chosen, {}
    words.plural = (singular, plural, count)
    return words


class _Hole:
    """A hole `filled` leaves for the error's own parameters, kept as it was written."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __str__(self) -> str:
        return f"%({self.name})s"

    def __repr__(self) -> str:
        return f"%({self.name})r"


class _Holes(dict[str, object]):
    def __missing__(self, name: str) -> _Hole:
        return _Hole(name)


def filled(words: Words, **params: object) -> Words:
    """Marked words with holes filled: a phrase a refusal puts in its own, or a
    refusal's words with the values only its sentence needs (the error's parameters,
    which the API also gives, fill the rest)."""
    said = Words(words.template % _Holes(params))
    said.template, said.params = words.template, params
    return said


class RuleError(Exception):
    """Input that breaks a rule of the game or of registration (answered with 400).

    Its message is marked `Words` filled with its parameters, or plain English text
    (shown as it is in every language)."""

    status = 400

    def __init__(
        self, code: str, message: str, *, field: str | None = None, **params: object
    ) -> None:
        self.template = message.template if isinstance(message, Words) else None
        self.fills = message.params if isinstance(message, Words) else {}
        self.plural = message.plural if isinstance(message, Words) else None
        if self.template is not None:
            message = self.template % {"field": field, **self.fills, **params}
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.params = params

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, field={self.field!r})"

    def at(self, field: str | None) -> RuleError:
        """The same refusal named on another field: its words, the values only its
        sentence needs, and its parameters, all kept."""
        words: str = self.message
        if self.plural is not None:
            words = filled(marked_plural(*self.plural), **self.fills)
            words.plural = self.plural
        elif self.template is not None:
            words = filled(marked(self.template), **self.fills)
        return RuleError(self.code, words, field=field, **self.params)

    @property
    def words(self) -> str:
        """The message as marked `Words` when it is (a page can translate it), for a
        refusal reported inside another one (a bad row of a file)."""
        if self.template is None:
            return self.message
        said = Words(self.message)
        said.template = self.template
        said.params = {"field": self.field, **self.fills, **self.params}
        return said


class ConflictError(RuleError):
    """A request that conflicts with the tournament's state (answered with 409)."""

    status = 409


class ForbiddenError(RuleError):
    """An action the rules reserve for another role (answered with 403)."""

    status = 403


class RuleErrors(RuleError):
    """Several independent errors found at once, reported together."""

    def __init__(self, errors: list[RuleError]) -> None:
        if not errors:
            raise AssertionError("RuleErrors needs at least one error")
        super().__init__("invalid", "; ".join(e.message for e in errors))
        self.errors = errors
