"""The game's values as the pages say them, in the visitor's language
(docs/glossary.md): match statuses, stages, trumps, levels, penalties and the desk's
table states. Model choices and the `said` template filter take their labels from
here; the domain modules and the API keep the English codes."""

from __future__ import annotations

import re
from enum import StrEnum

from django.utils.translation import gettext, gettext_noop, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from tournament import words as tournament_words

from .domain.desk import TableState
from .domain.rules import Level, MatchStatus, PenaltyKind, Stage, Trump

PENALTY_WORDS = {
    PenaltyKind.OUT_OF_TURN: _("Out of turn"),
    PenaltyKind.KALLAKALI: _("Kallakali"),
    PenaltyKind.CARDINAL_RULE: _("Cardinal rule"),
    PenaltyKind.CONSTRAINING_HAND: _("Constraining hand"),
    PenaltyKind.CONDUCT: _("Conduct"),
    PenaltyKind.LEAD_OUT_OF_TURN: _("Lead out of turn"),
    PenaltyKind.REVIEW: _("Review"),
}

WORDS: dict[type[StrEnum], dict[str, object]] = {
    Stage: {
        Stage.LEAGUE: pgettext_lazy("stage", "League"),
        Stage.KNOCKOUT: pgettext_lazy("stage", "Knockout"),
    },
    MatchStatus: {
        MatchStatus.SCHEDULED: _("Scheduled"),
        MatchStatus.IN_PROGRESS: _("In progress"),
        MatchStatus.COMPLETED: _("Completed"),
        MatchStatus.CONFIRMED: _("Confirmed"),
        MatchStatus.VOID: _("Void"),
        MatchStatus.FORFEITED: _("Forfeited"),
    },
    Trump: {
        Trump.CLUBS: _("Clubs"),
        Trump.DIAMONDS: _("Diamonds"),
        Trump.HEARTS: _("Hearts"),
        Trump.SPADES: _("Spades"),
        Trump.NO_TRUMP: _("No trump"),
    },
    Level: {
        Level.NONE: pgettext_lazy("level", "None"),
        Level.DOUBLED: _("Doubled"),
        Level.REDOUBLED: _("Redoubled"),
    },
    PenaltyKind: PENALTY_WORDS,
    TableState: {
        TableState.NOT_STARTED: _("not started"),
        TableState.IN_PROGRESS: _("in progress"),
        TableState.DISPUTED: _("disputed"),
        TableState.AWAITING: _("awaiting confirmation"),
        TableState.CONFIRMED: _("confirmed"),
        TableState.FORFEITED: _("forfeited"),
    },
}
# A match's result for one of its teams (league/selectors.py's TeamRound.result).
RESULTS = {
    "won": pgettext_lazy("match result", "won"),
    "lost": pgettext_lazy("match result", "lost"),
    "tied": pgettext_lazy("match result", "tied"),
}
# The template filter's names for the kinds of value: {{ m.stage|said:"stage" }}.
KINDS: dict[str, dict[str, object]] = {
    "stage": WORDS[Stage],
    "status": WORDS[MatchStatus],
    "trump": WORDS[Trump],
    "level": WORDS[Level],
    "penalty": WORDS[PenaltyKind],
    "table": WORDS[TableState],
    "result": RESULTS,
    "ruleset": tournament_words.RULESET_WORDS,
}


# A refusal that quotes a match's status or stage says it in the page's language.
tournament_words.PARAMETER_WORDS["status"].update(WORDS[MatchStatus])
tournament_words.PARAMETER_WORDS["stage"].update(WORDS[Stage])


def choices(enum: type[StrEnum]) -> list[tuple[str, object]]:
    """A model field's choices: each value with its label in the page's language."""
    return tournament_words.choices(enum, WORDS)


def locked_notice(status: str) -> str:
    """Why a locked sheet opens no score page, as its status says it: a forfeited
    sheet was never confirmed, and a void one counts nowhere."""
    if status == MatchStatus.FORFEITED:
        return gettext(
            "This sheet is forfeited (a team did not come) and locked; only an "
            "organizer can reopen it."
        )
    if status == MatchStatus.VOID:
        return gettext("This sheet is void: it was set aside and counts nowhere.")
    return gettext("This sheet is confirmed and locked.")


def said(value: str, kind: str) -> str:
    """`value` (a code of the kind named) as the page's language says it; an unknown
    value is shown as it is."""
    return str(KINDS[kind].get(value, value))


# What the offline queue (static/js/score/*.js) says, by its English words; the page
# hands them over translated ({% offline_words %}) and the script fills in the
# {names}. A sentence the script says must be here (tests/test_language.py).
OFFLINE_WORDS = (
    gettext_noop("({count} held for your choice below)"),
    gettext_noop("1 entry waiting to send"),
    gettext_noop("Change to deal {number}: {deal}"),
    gettext_noop("Deal {number}: {deal}"),
    gettext_noop(
        "Deleting and the toss need the network: do it again when this phone "
        "is "
        "back online."
    ),
    gettext_noop("Drop it"),
    gettext_noop("Enter mine as deal {number}"),
    gettext_noop("Every change from the other device: {changes}."),
    gettext_noop("Fill in every field of the deal before saving: {fields}."),
    gettext_noop("Keep the sheet's, drop mine"),
    gettext_noop("Not sent: the sheet changed on another device."),
    gettext_noop(
        "Offline: entries are kept on this phone and sent when the network is back"
    ),
    gettext_noop("On the sheet now, deal {number} is deleted."),
    gettext_noop("On the sheet now, deal {number}: {deal}."),
    gettext_noop("Online"),
    gettext_noop("Penalty in deal {deal}: {kind} by {offender}"),
    gettext_noop("Replace deal {number} with mine"),
    gettext_noop("Save mine as the next deal"),
    gettext_noop(
        "That needs the network (opening a deal to change it, deleting, the "
        "toss): "
        "try again when this phone is back online."
    ),
    gettext_noop("The award is worked out by the server when the deal reaches it."),
    gettext_noop(
        "The server cannot be reached: choose again when this phone is back online."
    ),
    gettext_noop("The server refused it."),
    gettext_noop("Try again"),
    gettext_noop(
        "While this phone was offline, another device changed the sheet: "
        "{changes}. {entry} did not clash with it and was sent after it; "
        "nothing was "
        "overwritten."
    ),
    gettext_noop("Yours, kept on this phone: {deal}."),
    gettext_noop("cardinal rule"),
    gettext_noop("conduct"),
    gettext_noop("constraining hand"),
    gettext_noop("deal {number} added ({deal})"),
    gettext_noop("deal {number} changed to {deal}"),
    gettext_noop("deal {number} deleted"),
    gettext_noop("doubled"),
    gettext_noop("kallakali"),
    gettext_noop("last saved {time}"),
    gettext_noop("nothing saved from this device yet"),
    gettext_noop("nothing waiting to send"),
    gettext_noop("out of turn"),
    gettext_noop("lead out of turn"),
    gettext_noop("incomplete review"),
    gettext_noop("redoubled"),
    gettext_noop("{count} entries waiting to send"),
    gettext_noop("{declarer} bid {value} {trump} {level}, took {taken}"),
    gettext_noop("{declarer} bid {value} {trump}, took {taken}"),
    gettext_noop("{entry}: kept on this phone, waiting to send."),
    gettext_noop("{entry}: refused by the server: {message}"),
    gettext_noop("{entry}: waiting to send"),
    gettext_noop(
        "Not saved: this page's security check expired. Reload the page; your "
        "entry is kept and will be sent."
    ),
    gettext_noop(
        "Not done: this page's security check expired. Reload the page and do it again."
    ),
    gettext_noop(
        "The server could not save it now (error {status}): it is kept on this "
        "phone and sent again shortly."
    ),
    gettext_noop(
        "Not done: the server could not do it now (error {status}). Try again "
        "in a moment."
    ),
    gettext_noop(
        "Not saved: the server refused it (error {status}). Reload the page "
        "and try again."
    ),
    # A refused entry corrected in the deal form, or dropped once asked (issue 50).
    gettext_noop("{deal} (bidder: {bidder})"),
    gettext_noop("Correct it"),
    gettext_noop("Cancel the correction"),
    gettext_noop(
        "Correcting {entry}: change what was refused, then save it; it goes back "
        "to its place in the queue."
    ),
    gettext_noop("{entry}: corrected, back in its place in the queue."),
    gettext_noop("Drop {entry}? It will not be sent, and this phone forgets it."),
)


def offline_words() -> dict[str, str]:
    """The offline queue's sentences in the page's language, by their English."""
    return {english: gettext(english) for english in OFFLINE_WORDS}


# A sheet's history, as the match page lists it (SheetChange.summary).
ACTIONS = {
    "match_create": _("Match set up"),
    "deal_add": _("Deal added"),
    "deal_replace": _("Deal changed"),
    "deal_delete": _("Deal deleted"),
    "penalty_add": _("Penalty added"),
    "penalty_delete": _("Penalty deleted"),
    "confirm": _("Confirmed"),
    "lock": _("Locked"),
    "reopen": _("Reopened"),
    "toss": _("Toss"),
    "toss_delete": _("Toss deleted"),
    "void": _("Void"),
    "restore": _("Restored from a backup"),
    "forfeit": _("Forfeit"),
    "dispute": _("Dispute"),
    "ruling": _("Ruling"),
}


def change_summary(action: str, row: dict, reason: str = "") -> str:
    """A change of a sheet in a few words: what was done, and to what. `reason`,
    the change's own words that the history quotes after the summary, is not said
    twice (a ruling's words are its reason)."""
    what = str(ACTIONS.get(action, action.replace("_", " ").capitalize()))
    if "kind" in row:
        return gettext("%(what)s: %(kind)s by %(offender)s in deal %(deal)s") % {
            "what": what,
            "kind": said(row["kind"], "penalty").lower(),
            "offender": row["offender"],
            "deal": row["deal"],
        }
    if "number" in row:
        deal = {
            "what": what,
            "number": row["number"],
            "declarer": row["declarer"],
            "value": row["value"],
            "trump": said(row["trump"], "trump"),
            "taken": row["taken"],
        }
        # A doubled or redoubled deal says so: a ruling that doubles a deal must not
        # read like the deal it changed.
        if row.get("level", Level.NONE) != Level.NONE:
            return gettext(
                "%(what)s, deal %(number)s: %(declarer)s %(value)s %(trump)s "
                "%(level)s, took %(taken)s"
            ) % {**deal, "level": said(row["level"], "level").lower()}
        return (
            gettext(
                "%(what)s, deal %(number)s: %(declarer)s %(value)s %(trump)s, took "
                "%(taken)s"
            )
            % deal
        )
    if "side" in row:
        return gettext("%(what)s for %(side)s") % {"what": what, "side": row["side"]}
    if "absent" in row:
        if row["absent"] == "both":
            return gettext("%(what)s: both teams absent") % {"what": what}
        return gettext("%(what)s: team %(side)s absent") % {
            "what": what,
            "side": row["absent"],
        }
    if "ruling" in row:
        if reason and reason == row["ruling"]:
            return gettext("Ruling on dispute %(number)s") % {"number": row["dispute"]}
        return gettext("Ruling on dispute %(dispute)s: %(ruling)s") % {
            "dispute": row["dispute"],
            "ruling": row["ruling"],
        }
    if "text" in row:
        if row.get("deal"):
            return gettext("Dispute %(dispute)s on deal %(deal)s: %(text)s") % {
                "dispute": row["dispute"],
                "deal": row["deal"],
                "text": row["text"],
            }
        return gettext("Dispute %(dispute)s on the match: %(text)s") % {
            "dispute": row["dispute"],
            "text": row["text"],
        }
    return what


# Who did something, as the history and the disputes keep it: a username, a link's
# label (Link.label: "table 12 link", "<team> team link") and how a dispute's raiser
# may raise it (sheets/day.py's dispute_raiser: "organizer", "scorer", "captain of
# A"). They are stored in English, as the API shows them; a page says them in its
# language. A username has no spaces, so it is never taken for a label.
_TABLE_LINK = re.compile(r"table (\d+) link")
_TEAM_LINK = re.compile(r"(.+) team link")
_CAPTAIN_OF = re.compile(r"captain of (A|B|A and B)")


def who_said(name: str) -> str:
    """`name` (a history's or a dispute's who) in the page's language."""
    if found := _TABLE_LINK.fullmatch(name):
        return gettext("table %(table)s link") % {"table": found[1]}
    if name == "team link":
        return gettext("team link")
    if found := _TEAM_LINK.fullmatch(name):
        return gettext("%(team)s team link") % {"team": found[1]}
    if name == "organizer":
        return gettext("organizer")
    if name == "scorer":
        return gettext("scorer")
    if found := _CAPTAIN_OF.fullmatch(name):
        sides = found[1].split(" and ")
        team = (
            sides[0]
            if len(sides) == 1
            else gettext("%(first)s and %(second)s")
            % {"first": sides[0], "second": sides[1]}
        )
        return gettext("captain of %(team)s") % {"team": team}
    return name
