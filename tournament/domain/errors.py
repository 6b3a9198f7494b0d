"""Errors of the game's rules, with a code and parameters, and a readable message.

One DRF exception handler (tournament/apis_common.py) turns a `RuleError` into a 400
answer, 409 for a `ConflictError` or 403 for a `ForbiddenError`, naming the field when
the error has one. Nothing here knows about HTTP; the code and the parameters are what
tests and clients can rely on.
"""

from __future__ import annotations


class RuleError(Exception):
    """Input that breaks a rule of the game or of registration (answered with 400)."""

    status = 400

    def __init__(
        self, code: str, message: str, *, field: str | None = None, **params: object
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.params = params

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, field={self.field!r})"


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
