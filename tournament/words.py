"""The tournament's values as the pages say them, in the visitor's language
(docs/glossary.md): a model's choices and a page's badges take their labels from here.
The domain modules and the API name the same values in English, by their codes."""

from __future__ import annotations

import re
from enum import StrEnum

from django.utils.translation import get_language, gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from .domain.errors import RuleError, RuleErrors, Words
from .domain.rulesets import RuleSetCode
from .domain.sections import Placement
from .domain.types import Role, RoundStage, TeamStatus, TournamentStatus
from .domain.zones import zone_place, zone_region

WORDS: dict[type[StrEnum], dict[str, object]] = {
    TournamentStatus: {
        TournamentStatus.REGISTRATION: _("Registration"),
        TournamentStatus.LEAGUE: pgettext_lazy("tournament status", "League"),
        TournamentStatus.KNOCKOUT: pgettext_lazy("tournament status", "Knockout"),
        TournamentStatus.FINISHED: _("Finished"),
    },
    TeamStatus: {
        TeamStatus.ACTIVE: pgettext_lazy("team status", "Active"),
        TeamStatus.ABSENT: pgettext_lazy("team status", "Absent"),
        TeamStatus.WITHDRAWN: pgettext_lazy("team status", "Withdrawn"),
    },
    RoundStage: {
        RoundStage.LEAGUE: pgettext_lazy("stage", "League"),
        RoundStage.KNOCKOUT: pgettext_lazy("stage", "Knockout"),
    },
    Role: {
        Role.ORGANIZER: _("Organizer"),
        Role.SCORER: _("Scorer"),
        Role.CAPTAIN: _("Captain"),
    },
    Placement: {
        Placement.CITY: pgettext_lazy("placement", "City"),
        Placement.STATE: pgettext_lazy("placement", "State"),
        Placement.INTERNATIONAL: pgettext_lazy("placement", "International"),
        Placement.ORGANIZER: pgettext_lazy("placement", "Organizer"),
    },
}

# The regions of the tz database whose zones a tournament may choose (forms.py), as
# the time zone list groups them.
ZONE_REGIONS = {
    "Africa": _("Africa"),
    "America": _("America"),
    "Antarctica": _("Antarctica"),
    "Arctic": _("Arctic"),
    "Asia": _("Asia"),
    "Atlantic": _("Atlantic Ocean"),
    "Australia": _("Australia"),
    "Europe": _("Europe"),
    "Indian": _("Indian Ocean"),
    "Pacific": _("Pacific Ocean"),
}


def zone_label(name: str) -> str:
    """A time zone as a person reads it, in the page's language: "New York
    (America)", "North Dakota – Center (America)", "UTC"; an old alias outside the
    regions ("US/Eastern") as its name, spaced."""
    region = zone_region(name)
    if region in ZONE_REGIONS:
        return f"{zone_place(name)} ({ZONE_REGIONS[region]})"
    return name.replace("_", " ")


# A rule set as a person reads it (domain/rulesets.py's titles, in the page's
# language): the overview and the settings name it so; the model and the API keep the
# code ("gcka").
RULESET_WORDS = {
    RuleSetCode.INTERNATIONAL: _("56 International"),
    RuleSetCode.GCKA: _("Greater Carolina Kerala Association"),
    RuleSetCode.ONLINE: _("Online 56"),
    RuleSetCode.CLASSIC: _("Classic 56"),
    RuleSetCode.TABLES: pgettext_lazy("rule set", "Tables"),
}


def ruleset_name(code: str) -> str:
    """A rule set's name in the page's language ("gcka" → "Greater Carolina Kerala
    Association")."""
    return str(RULESET_WORDS.get(code, code))


# A setting an earlier step fixed says so under its field (domain/setup.py's steps, by
# the code of the change they refuse).
FIXED_BY = {
    "draw_locked": _("Fixed: the league is drawn"),
    "knockout_seeded": _("Fixed: the knockout is seeded"),
}


def choices(enum: type[StrEnum], words=WORDS) -> list[tuple[str, object]]:
    """A model field's choices: each value with its label in the page's language."""
    said = words.get(enum, {})
    return [
        (m.value, said.get(m, m.value.replace("_", " ").capitalize())) for m in enum
    ]


# The reasons the site writes on its own backups (backups/services.py), as the pages
# say them; a reason an organizer typed is shown as typed.
_BACKUP_REASONS = {
    "by hand": _("by hand"),
    "before the draw": _("before the draw"),
    "before the knockout seeding": _("before the knockout seeding"),
    "before restore": _("before a restore"),
}
_BACKUP_REASON_PATTERNS = (
    (re.compile(r"before reopening match (?P<match>\d+)"),
     _("before reopening match %(match)s")),
    (re.compile(r"before the withdrawal of (?P<team>.+)"),
     _("before the withdrawal of %(team)s")),
    (re.compile(r"before restoring the backup of (?P<when>.+)"),
     _("before restoring the backup of %(when)s")),
)  # fmt: skip


def backup_reason(reason: str) -> str:
    """A backup's reason in the page's language."""
    if reason in _BACKUP_REASONS:
        return str(_BACKUP_REASONS[reason])
    for pattern, words in _BACKUP_REASON_PATTERNS:
        found = pattern.fullmatch(reason)
        if found:
            return str(words) % found.groupdict()
    return reason


# The codes a refusal quotes by a parameter of this name (a match's or a tournament's
# status, a stage), as a page says them: the API's message and parameters keep the
# code ("in_progress"); an English page says it in words ("in progress"), another
# language its own word. scoring/words.py adds the match's statuses.
PARAMETER_WORDS: dict[str, dict[str, object]] = {
    "status": dict(WORDS[TournamentStatus]),
    "stage": dict(WORDS[RoundStage]),
}


def refusal(error: RuleError) -> str:
    """A refusal of the rules as the pages say it: its marked words in the page's
    language, filled with its parameters; unmarked words as they are (the API always
    says `error.message`, in English)."""
    if isinstance(error, RuleErrors):
        return "; ".join(refusal(e) for e in error.errors)
    if error.template is None:
        return error.message
    params = {"field": error.field, **error.fills, **error.params}
    if error.plural is not None:
        singular, plural, count = error.plural
        return ngettext(singular, plural, count) % {
            name: _said(value.template, value.params)
            if isinstance(value, Words)
            else value
            for name, value in params.items()
        }
    return _said(error.template, params)


def _said(template: str, params: dict[str, object]) -> str:
    """Marked words in the page's language, their phrases translated in turn."""
    return gettext(template) % {
        name: _parameter_said(name, value) for name, value in params.items()
    }


def _parameter_said(name: str, value: object) -> object:
    if isinstance(value, Words):
        return _said(value.template, value.params)
    said = PARAMETER_WORDS.get(name, {}).get(value) if isinstance(value, str) else None
    if said is None:
        return value
    if (get_language() or "en").startswith("en"):
        return str(value).replace("_", " ")
    return str(said)


def words_said(words: Words) -> str:
    """Marked words (a phrase, a link's refusal) in the page's language."""
    return _said(words.template, words.params)


def exception_said(error: Exception) -> str:
    """An exception's message in the page's language, when its words are marked."""
    words = error.args[0] if error.args else None
    return words_said(words) if isinstance(words, Words) else str(error)
