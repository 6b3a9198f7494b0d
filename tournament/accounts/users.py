"""The site's usernames and the accounts made with them (docs/people.md, "Usernames"):
what refuses a username (its characters, tournament/domain/usernames.py, then a name
taken or looked like), what refuses a new user's password (the site's validators),
and the new user itself. An accepted invitation makes one
(tournament/accounts/invitations.py), the API's roles for a new username make one,
the Django admin's users page and a tournament file's import ask the same refusals.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError

from ..domain.errors import RuleError, RuleErrors, marked
from ..domain.usernames import (
    username_form,
    username_key,
    username_refusal,
    username_skeleton,
)


def raise_refusals(errors: list[RuleError]) -> None:
    """Raise what refuses a write: one error as itself, more as RuleErrors."""
    if errors:
        raise errors[0] if len(errors) == 1 else RuleErrors(errors)


def username_errors(username: str) -> list[RuleError]:
    """The site's rules for usernames (tournament/domain/usernames.py: letters of
    one alphabet, digits 0 to 9, . _ - @ +), then the user model's own, for the API
    and the pages alike."""
    if refusal := username_refusal(username):
        return [refusal]
    user_model = get_user_model()
    try:
        user_model._meta.get_field(user_model.USERNAME_FIELD).run_validators(
            username_form(username)
        )
    except ValidationError as error:
        return [
            RuleError("invalid_username", m, field="username") for m in error.messages
        ]
    return []


class SiteUsernames:
    """The site's usernames by key and by skeleton (tournament/domain/usernames.py),
    read once to judge many names (a tournament's file names its people). Every
    username is read: the keys are Unicode's case folding and TR39's skeleton, which
    no database index holds, and a site has thousands of users, not millions
    (docs/people.md, "Usernames": 20,000 read in about 65 ms)."""

    def __init__(self, *, exclude_pk: int | None = None) -> None:
        self.keys: dict[str, str] = {}
        self.skeletons: dict[str, str] = {}
        others = get_user_model()._base_manager.exclude(pk=exclude_pk)
        for existing in others.values_list("username", flat=True).iterator(2000):
            self.add(existing)

    def add(self, username: str) -> None:
        self.keys.setdefault(username_key(username), username)
        self.skeletons.setdefault(username_skeleton(username), username)

    def clashes(self, username: str) -> list[RuleError]:
        """A username that one of the site's is, letter case and width aside
        ("ＲＯＯＴ", "ROOT" beside "root"), or looks like (Cyrillic "рор" beside
        "pop")."""
        if username_key(username) in self.keys:
            return [
                RuleError(
                    "username_taken",
                    marked(
                        "the username %(username)s is taken (usernames that differ "
                        "only in letter case or width are one); choose another, or "
                        "log in if it is yours"
                    ),
                    field="username",
                    username=username_form(username),
                )
            ]
        if username_skeleton(username) in self.skeletons:
            return [
                RuleError(
                    "username_confusable",
                    marked(
                        "the username %(username)s looks like an existing one "
                        "(letters of another alphabet that look the same); choose "
                        "another"
                    ),
                    field="username",
                    username=username_form(username),
                )
            ]
        return []


def username_clashes(
    username: str, *, exclude_pk: int | None = None
) -> list[RuleError]:
    """The refusals of a username that a user's is or looks like (SiteUsernames)."""
    return SiteUsernames(exclude_pk=exclude_pk).clashes(username)


def username_refusals_of(username: str, site: SiteUsernames) -> list[RuleError]:
    """username_refusals against usernames read once (SiteUsernames)."""
    return username_errors(username) or site.clashes(username)


def username_refusals(
    username: str, *, exclude_pk: int | None = None
) -> list[RuleError]:
    """Everything that refuses `username` for a new or renamed user (`exclude_pk`):
    the rules of its characters, then the names it is or looks like."""
    return username_refusals_of(username, SiteUsernames(exclude_pk=exclude_pk))


def new_user_errors(username: str, password: str | None) -> list[RuleError]:
    """What is wrong with making a user of this name and password: the username's
    rules, a name taken or looked like, and the site's password validators."""
    user_model = get_user_model()
    errors = username_errors(username)
    if errors:
        return errors
    errors.extend(username_clashes(username))
    if not password:
        errors.append(
            RuleError("required", marked("choose a password"), field="password")
        )
    else:
        try:
            validate_password(password, user_model(username=username_form(username)))
        except ValidationError as error:
            errors.extend(
                RuleError("weak_password", m, field="password") for m in error.messages
            )
    return errors


def user_create(username: str, password: str):
    """The user, its name in the form Django stores (its checks made before). A
    name another request took since is refused as the checks refuse it."""
    user = get_user_model()(username=username_form(username))
    user.set_password(password)
    try:
        user.full_clean()
    except ValidationError as error:
        raise_refusals(
            [
                RuleError("invalid_username", m, field="username")
                for m in error.message_dict.get("username", error.messages)
            ]
        )
    user.save()
    return user
