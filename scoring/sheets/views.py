"""Pages of score sheets: the scorer's entry page (htmx), the read-only match page
(printable, with confirmation), and a tournament's matches.

Interfaces only: each POST names an action, a form checks its shape, one service does
the work, and a `RuleError` is shown next to the field it names. With htmx the entry
page swaps only its sheet; without it, every form still works by plain POST.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from tournament.domain.errors import ConflictError, RuleError, marked
from tournament.domain.rulesets import LevelMode, ruleset_get
from tournament.domain.types import Role
from tournament.domain.zones import zone_abbreviation
from tournament.selectors import match_roster
from tournament.web.pages import (
    form_errors,
    htmx_request,
    live_etag,
    live_headers,
    unchanged,
)
from tournament.web.zones import local, tournament_zone_activate
from tournament.words import refusal

from ..domain import rules, tiebreak
from ..domain.rules import Level, MatchStatus, PenaltyKind, Side
from ..models import Deal, Dispute, Match
from ..words import PENALTY_WORDS, locked_notice
from . import day, locking, services, toss
from .forms import (
    ConfirmForm,
    DealForm,
    DisputeForm,
    ForfeitForm,
    PenaltyForm,
    ReopenForm,
    RowDeleteForm,
    RulingForm,
    TossForm,
)
from .selectors import DEAL_VALUE_FIELDS as DEAL_FIELDS
from .selectors import (
    captain_sides,
    confirmations_withdrawn,
    dispute_list,
    match_get_visible,
    sheet_change_list,
    sheet_read,
)

WRITERS = {Role.ORGANIZER, Role.SCORER}


def _match(request: HttpRequest, pk: int) -> tuple[Match, frozenset[Role]]:
    found = match_get_visible(user=request.user, pk=pk)
    if found is None:
        raise Http404("No such match")
    tournament_zone_activate(found[0].tournament)
    return found


def _sides(match: Match) -> list[tuple[str, str]]:
    return [("A", f"A · {match.team_a.name}"), ("B", f"B · {match.team_b.name}")]


def _levels(match: Match) -> dict[str, str]:
    """How this rule set doubles, as the scorer's buttons say it (rules.md §2)."""
    rs = ruleset_get(match.tournament.ruleset)
    sign = "+" if rs.level_mode is LevelMode.ADD else "×"
    return {
        Level.NONE.value: gettext("Plain"),
        Level.DOUBLED.value: gettext("Double %(step)s")
        % {"step": f"{sign}{rs.doubled}"},
        Level.REDOUBLED.value: gettext("Redouble %(step)s")
        % {"step": f"{sign}{rs.redoubled}"},
    }


# The scorer's page
# ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreAt:
    """Where one score page lives and who writes through it: the signed-in scorer's
    page, or a table link's (scoring/links/views.py)."""

    score_url: str  # where its forms post, and htmx reads the sheet again
    preview_url: str
    back: str  # where a plain POST returns
    template: str = "scoring/score.html"
    actor: object = None  # the request's user unless given
    extra: dict = dataclasses.field(default_factory=dict)  # more for the full page


class _ScoreDesk:
    """The entry page's forms for one sheet, and a handler per action."""

    def __init__(
        self,
        request: HttpRequest,
        match: Match,
        roles: frozenset[Role],
        *,
        bind: bool = True,
        at: ScoreAt,
    ):
        self.request, self.match, self.roles, self.at = request, match, roles, at
        # Who the history names: the signed-in scorer, or a table's link.
        self.actor = at.actor if at.actor is not None else request.user
        self.view = sheet_read(match=match)
        self.roster = match_roster(
            team_a=match.team_a_id,
            team_b=match.team_b_id,
            stage=match.stage,
            round=match.round,
            absent=match.forfeit_absent,
        )
        self.message = ""
        self.stale = False
        self.answered = ""  # the action a POST asked for: its answer shows beside it
        # An Idempotency-Key sent with a POST (the offline queue's, static/js/score/)
        # is honoured as the API honours it: the action's service is given it.
        self.idempotency_key = (
            locking.request_key(request) if bind and request.method == "POST" else None
        )
        posted = (
            request.POST.get("action") if bind and request.method == "POST" else None
        )
        self.deal_form = self._deal_form(
            request.POST if posted == "deal" else None,
            edit=request.GET.get("edit") if bind else None,
        )
        self.penalty_form = PenaltyForm(
            request.POST if posted == "penalty" else None,
            sides=_sides(match),
            deals=[d.number for d in self.view.deals],
            rule_set=ruleset_get(match.tournament.ruleset),
            organizer=Role.ORGANIZER in roles,
            initial={"version": match.version},
            prefix="penalty",
        )
        self.toss_form = TossForm(
            request.POST if posted == "toss" else None,
            sides=_sides(match),
            initial={"version": match.version},
            prefix="toss",
        )

    def _deal_form(self, data, *, edit: str | None = None) -> DealForm:
        initial = {"version": self.match.version, "number": self.view.next_number()}
        if edit and edit.isdigit():
            deal = next((d for d in self.view.deals if d.number == int(edit)), None)
            if deal is not None:
                initial |= {
                    f: getattr(deal, f) for f in (*DEAL_FIELDS, "bidder", "auction")
                }
                initial["replacing"] = deal.number
        return DealForm(
            data,
            sides=_sides(self.match),
            levels=_levels(self.match),
            roster=self.roster,
            initial=initial,
        )

    def handle(self, action: str) -> bool:
        """Run one action; True when it changed the sheet."""
        self.answered = action
        handler = {
            "deal": self._deal,
            "penalty": self._penalty,
            "delete": self._delete,
            "toss": self._toss,
        }.get(action)
        if handler is None:
            self.message = gettext("Choose what to change on the sheet.")
            return False
        try:
            done = handler()
        except locking.Replayed:
            # The same entry sent again (the offline queue after a lost answer):
            # it is on the sheet once.
            self.message = gettext(
                "This entry was saved already; it is on the sheet once."
            )
            return True
        except ConflictError as error:
            if error.code == "stale_version":
                self._reload_keeping_input(action)
                self.message = gettext(
                    "Another scorer changed this sheet a moment ago, so your entry "
                    "was not saved. The sheet below is up to date: check it, then "
                    "save again."
                )
                return False
            self._refused(action, error)
        except RuleError as error:
            self._refused(action, error)
            return False
        if done is None:  # the form shows what is missing or malformed
            return False
        self.message = done
        return True

    def _refused(self, action: str, error: RuleError) -> None:
        form = {
            "deal": self.deal_form,
            "penalty": self.penalty_form,
            "toss": self.toss_form,
        }.get(action)
        if form is None:
            self.message = refusal(error)
        else:
            form_errors(form, error)

    def _reload_keeping_input(self, action: str) -> None:
        self.match = Match.objects.select_related("tournament", "team_a", "team_b").get(
            pk=self.match.pk
        )
        self.view = sheet_read(match=self.match)
        self.stale = True
        data = self.request.POST.copy()
        prefix = "penalty-" if action == "penalty" else ""
        data[f"{prefix}version"] = str(self.match.version)
        if action == "deal":
            self.deal_form = self._deal_form(data)
        elif action == "penalty":
            self.penalty_form = PenaltyForm(
                data,
                sides=_sides(self.match),
                deals=[d.number for d in self.view.deals],
                rule_set=ruleset_get(self.match.tournament.ruleset),
                organizer=Role.ORGANIZER in self.roles,
                prefix="penalty",
            )

    def _deal(self) -> str | None:
        form = self.deal_form
        if not form.is_valid():
            return None
        data = dict(form.cleaned_data)
        replacing = data.pop("replacing")
        user = self.actor
        if replacing:
            if data["number"] != replacing:
                raise RuleError(
                    "renumber",
                    marked(
                        "this changes deal %(replacing)s; to move it to another "
                        "number, delete it and enter it again."
                    ),
                    field="number",
                    replacing=replacing,
                )
            deal, _ = services.score_sheet_deal_replace(
                match_id=self.match.pk,
                user=user,
                idempotency_key=self.idempotency_key,
                **data,
            )
            return gettext("Deal %(number)s is changed: %(award)s.") % {
                "number": deal.number,
                "award": self._award(deal),
            }
        try:
            deal, _ = services.score_sheet_deal_record(
                match_id=self.match.pk,
                user=user,
                idempotency_key=self.idempotency_key,
                **data,
            )
        except locking.Replayed:
            # The same deal sent again (a lost answer, a second tap): it is there.
            deal = Deal.objects.get(match=self.match, number=data["number"])
            return gettext("Deal %(number)s was saved already: %(award)s.") % {
                "number": deal.number,
                "award": self._award(deal),
            }
        return gettext("Deal %(number)s saved: %(award)s.") % {
            "number": deal.number,
            "award": self._award(deal),
        }

    def _award(self, deal) -> str:
        words = {
            "contract": deal.contract,
            "side": deal.award_to,
            "team": self.match.team(deal.award_to).name,
            "award": deal.award,
        }
        if deal.made:
            return (
                gettext("%(contract)s made, %(side)s (%(team)s) receives %(award)s")
                % words
            )
        return (
            gettext("%(contract)s defeated, %(side)s (%(team)s) receives %(award)s")
            % words
        )

    def _penalty(self) -> str | None:
        form = self.penalty_form
        if not form.is_valid():
            return None
        data = form.cleaned_data
        penalty, _ = services.score_sheet_penalty_record(
            match_id=self.match.pk,
            user=self.actor,
            version=data["version"],
            deal=data["deal"],
            offender=data["offender"],
            kind=data["kind"],
            points=data["points"] if data["kind"] == "conduct" else None,
            note=data["note"],
            by_organizer=Role.ORGANIZER in self.roles,
            idempotency_key=self.idempotency_key,
        )
        if penalty.warning:
            # Out of turn, or a lead out of turn: each has its own first warning.
            return gettext("%(kind)s by %(side)s: a warning (no points).") % {
                "kind": PENALTY_WORDS[PenaltyKind(penalty.kind)],
                "side": penalty.offender,
            }
        # The deal as this page read it, at the version the penalty was entered on
        # (the service refused any other): what the penalty turned over.
        before = (
            next((d for d in self.view.deals if d.number == data["deal"]), None)
            if data["version"] == self.match.version
            else None
        )
        return penalty_said(penalty, before)

    def _toss(self) -> str | None:
        form = self.toss_form
        if not form.is_valid():
            return None
        match = toss.score_sheet_toss_record(
            match_id=self.match.pk,
            user=self.actor,
            idempotency_key=self.idempotency_key,
            **form.cleaned_data,
        )
        sudden = tiebreak.deciding_deal(match.deals_scheduled or 0)
        return gettext(
            "Toss won by %(winner)s; %(dealer)s deals deal %(number)s, whose winner "
            "wins the match."
        ) % {
            "winner": match.toss_winner,
            "dealer": match.first_dealer,
            "number": sudden,
        }

    def _delete(self) -> str:
        form = RowDeleteForm(self.request.POST)
        if not form.is_valid():
            raise RuleError("invalid", gettext("Choose a deal or a penalty to delete."))
        data = form.cleaned_data
        if data["penalty"]:
            services.score_sheet_penalty_delete(
                match_id=self.match.pk,
                penalty_id=data["penalty"],
                user=self.actor,
                version=data["version"],
                idempotency_key=self.idempotency_key,
            )
            return gettext("The penalty is deleted.")
        services.score_sheet_deal_delete(
            match_id=self.match.pk,
            number=data["number"] or 0,
            user=self.actor,
            version=data["version"],
            idempotency_key=self.idempotency_key,
        )
        return gettext("Deal %(number)s is deleted.") % {"number": data["number"]}

    def context(self) -> dict:
        return {
            # The sheet's deals as the offline queue compares them with the
            # server's after a conflict (static/js/score/).
            "deals_json": json.dumps(
                [[getattr(d, f) for f in DEAL_FIELDS] for d in self.view.deals]
            ),
            "score_url": self.at.score_url,
            "preview_url": self.at.preview_url,
            "match": self.match,
            "view": self.view,
            "tournament": self.match.tournament,
            "roles": self.roles,
            "deal_form": self.deal_form,
            "penalty_form": self.penalty_form,
            "toss_form": self.toss_form,
            "auction_pad": AUCTION_PAD,
            "message": self.message,
            "stale": self.stale,
            "answered": self.answered,
            "editable": True,
        }


def penalty_said(penalty, before: Deal | None) -> str:
    """What a saved penalty gives, as the team's total really moves (rules.md §3): a
    penalty that gives the deal away gives the deal's award with its points, and the
    other team no longer has the deal's award. `before` is the deal as it was, when
    known."""
    deal = penalty.deal
    words = {"side": penalty.award_to, "points": penalty.points, "award": deal.award}
    gave_deal = deal.award_to == penalty.award_to and deal.awarded_by == penalty.kind
    if not gave_deal:
        return gettext("Penalty saved: %(side)s receives %(points)s.") % words
    if before is not None and before.award_to != deal.award_to:
        return gettext(
            "Penalty saved: %(side)s receives the deal (%(award)s) and %(points)s "
            "penalty points: %(total)s. %(other)s no longer has the deal's %(lost)s."
        ) % {
            **words,
            "total": deal.award + penalty.points,
            "other": before.award_to,
            "lost": before.award,
        }
    return (
        gettext(
            "Penalty saved: %(side)s has the deal (%(award)s) and receives %(points)s "
            "penalty points."
        )
        % words
    )


# The calls the auction's tap pad adds (static/js/auction.js); numbers join the
# digits before them and a trump letter the number before it (docs/auction.md).
AUCTION_PAD = (
    "A:", "B:", *"0123456789", "C", "D", "H", "S", "N", "P", "X", "XX",
    "R40", "R48", "R56",
)  # fmt: skip


def score_response(
    request: HttpRequest, match: Match, roles: frozenset[Role], at: ScoreAt
) -> HttpResponse:
    """A score page's answer to GET and POST: its forms, one action per POST, the
    sheet swapped by htmx or the page again after a plain POST. An Idempotency-Key
    sent with a POST (the offline queue's, static/js/score/) is honoured as the
    API honours it."""
    desk = _ScoreDesk(request, match, roles, at=at)
    htmx = htmx_request(request)
    status = 200
    if request.method == "POST":
        changed = desk.handle(request.POST.get("action", ""))
        if changed and not htmx:
            messages.success(request, desk.message)
            return redirect(at.back)
        if changed:
            match = Match.objects.select_related(
                "tournament", "team_a__section", "team_b__section"
            ).get(pk=match.pk)
            done, answered = desk.message, desk.answered
            desk = _ScoreDesk(request, match, roles, bind=False, at=at)
            desk.message, desk.answered = done, answered
        else:
            status = 409 if desk.stale else 400
    template = "scoring/_score_app.html" if htmx else at.template
    context = desk.context()
    if not htmx:
        context.update(day_context(match, roles, frozenset(), desk.roster))
        context.update(at.extra)
    # htmx swaps the answer in even when refused: the errors are the answer.
    response = render(request, template, context, status=200 if htmx else status)
    if htmx and request.method == "POST" and status == 200:
        response["HX-Trigger"] = "sheetSaved"  # the page notes the time it was saved
    return response


@require_http_methods(["GET", "POST"])
def score_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The scorer's page: enter deals and penalties, see awards and totals at once."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    match, roles = _match(request, pk)
    if not roles & WRITERS:
        raise PermissionDenied(
            gettext("Only the tournament's scorers and organizers score.")
        )
    if match.locked:
        messages.info(request, locked_notice(match.status))
        return redirect("scoring:match", pk=pk)
    here = reverse("scoring:score", kwargs={"pk": pk})
    at = ScoreAt(
        score_url=here,
        preview_url=reverse("scoring:score-preview", kwargs={"pk": pk}),
        back=here,
        extra={
            "manifest_url": reverse("scoring:score-manifest", kwargs={"pk": pk}),
            "offline": offline_context(match, link_key=""),
        },
    )
    return score_response(request, match, roles, at)


def offline_context(match: Match, *, link_key: str) -> dict:
    """What static/js/score/ needs to queue this sheet's entries: where the API
    is, and how it is reached (a link's key, or the session); and the tournament's
    zone, in which it tells "last saved" (named as the pages name it)."""
    return {
        "match": match.pk,
        "api": reverse("scoring-api:match-detail", kwargs={"pk": match.pk}),
        "link_key": link_key,
        "time_zone": match.tournament.time_zone,
        "zone_label": zone_abbreviation(
            local(timezone.now(), match.tournament.time_zone)
        ),
    }


@require_GET
def score_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """What the deal being typed would give, before it is saved (htmx)."""
    match, roles = _match(request, pk)
    if not roles & WRITERS:
        raise PermissionDenied(
            gettext("Only the tournament's scorers and organizers score.")
        )
    return preview_response(request, match)


def preview_response(request: HttpRequest, match: Match) -> HttpResponse:
    values: dict = {}
    for field in ("number", "value", "taken"):
        raw = request.GET.get(field, "").strip()
        values[field] = int(raw) if raw.lstrip("-").isdigit() else raw or None
    for field in ("declarer", "trump", "level"):
        values[field] = request.GET.get(field) or None
    text, bad = "", False
    if all(values[f] is not None for f in ("declarer", "value", "trump", "taken")):
        values["level"] = values["level"] or Level.NONE.value
        values["number"] = values["number"] or 1
        try:
            deal = rules.deal_from_values(**values, deals_allowed=match.deals_scheduled)
        except RuleError as error:
            text, bad = refusal(error), True
        else:
            result = rules.score_deal(deal, ruleset_get(match.tournament.ruleset))
            side = Side(result.award_to)
            words = {
                "contract": f"{deal.value} {rules.TRUMP_SYMBOLS[deal.trump]}",
                "defenders": rules.POINTS_IN_DEAL - deal.taken,
                "side": side.value,
                "team": match.team(side).name,
                "award": result.award,
            }
            if result.made:
                text = gettext(
                    "%(contract)s made (defenders took %(defenders)s): %(side)s · "
                    "%(team)s receives %(award)s"
                )
            else:
                text = gettext(
                    "%(contract)s defeated (defenders took %(defenders)s): %(side)s · "
                    "%(team)s receives %(award)s"
                )
            text %= words
    return render(
        request, "scoring/_preview.html", {"text": text, "bad": bad, "match": match}
    )


# The match page: read-only, printable; confirmation
# ----------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def match_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A match's sheet for everyone; captains and organizers confirm here."""
    match, roles = _match(request, pk)
    sides = captain_sides(user=request.user, match=match)
    reopen_form = ReopenForm(
        request.POST if request.POST.get("action") == "reopen" else None
    )
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        action = request.POST.get("action")
        try:
            if action == "confirm":
                form = ConfirmForm(request.POST)
                if not form.is_valid():
                    raise RuleError(
                        "invalid", gettext("The page is out of date; reload it.")
                    )
                match = services.score_sheet_confirm(
                    match_id=pk,
                    user=request.user,
                    version=form.cleaned_data["version"],
                    roles=roles,
                    sides=sides,
                )
                messages.success(
                    request,
                    gettext("The sheet is confirmed and locked.")
                    if match.locked
                    else gettext(
                        "Your confirmation is recorded; the other captain's is next."
                    ),
                )
                return redirect("scoring:match", pk=pk)
            if action == "reopen":
                if Role.ORGANIZER not in roles:
                    raise PermissionDenied(
                        gettext("Only an organizer reopens a sheet.")
                    )
                if reopen_form.is_valid():
                    services.score_sheet_reopen(
                        match_id=pk, user=request.user, **reopen_form.cleaned_data
                    )
                    messages.success(request, gettext("The sheet is open again."))
                    return redirect("scoring:match", pk=pk)
            if action in DAY_ACTIONS:
                messages.success(
                    request, DAY_ACTIONS[action](request, match, roles, sides)
                )
                return redirect(_back(request, match))
        except RuleError as error:
            messages.error(request, refusal(error))
            return redirect(_back(request, match))
    etag = match_etag(request, match)
    poll = htmx_request(request)
    if poll and (same := unchanged(request, etag)) is not None:
        return same
    view = sheet_read(match=match)
    withdrawn = confirmations_withdrawn([match]).get(match.pk, {})
    context = {
        "match": match,
        "view": view,
        "tournament": match.tournament,
        "roles": roles,
        "sides": sides,
        # The sides whose confirmation a dispute withdrew, with its number; the
        # viewer's own first, said to him plainly.
        "withdrawn": withdrawn,
        "withdrawn_mine": sorted(
            (side, number) for side, number in withdrawn.items() if side in sides
        ),
        "can_confirm": view.confirmable_by(roles=roles, sides=sides),
        "can_score": bool(roles & WRITERS) and not match.locked,
        "reopen_form": reopen_form,
        "etag": etag,
        "live": not match.locked,
        "poll": settings.DESK_POLL_SECONDS,
    }
    if poll:
        return live_headers(render(request, "scoring/_match_live.html", context), etag)
    return render(
        request,
        "scoring/match.html",
        {
            **context,
            "changes": list(sheet_change_list(match=match)),
            **day_context(match, roles, sides),
        },
        status=400 if reopen_form.is_bound and reopen_form.errors else 200,
    )


def match_etag(request: HttpRequest, match: Match) -> str:
    """The ETag of what a match's live part shows."""
    return live_etag(request, sheet_shown(match))


def sheet_shown(match: Match) -> tuple:
    """What a live page shows of a sheet: anything a write to it changes (its
    version, status, disputes, each side's confirmation, its last change)."""
    return (
        match.pk,
        match.version,
        match.status,
        match.open_disputes,
        match.confirmed_a_version,
        match.confirmed_b_version,
        match.updated_at,
    )


# The tournament day on a sheet: forfeit, disputes, rulings (rules.md §9)
# ----------------------------------------------------------------------------------


def _back(request: HttpRequest, match: Match) -> str:
    """Where a form of the day returns: the score page it was sent from (named, never
    an address from the request), or the match page."""
    page = "scoring:score" if request.POST.get("back") == "score" else "scoring:match"
    return reverse(page, kwargs={"pk": match.pk})


def _checked(form) -> dict:
    """The form's clean data, or a RuleError naming its first problem."""
    if form.is_valid():
        return form.cleaned_data
    field, errors = next(iter(form.errors.items()))
    raise RuleError("invalid", errors[0], field=None if field == "__all__" else field)


def _forfeit(request, match, roles, sides) -> str:
    if Role.ORGANIZER not in roles:
        raise PermissionDenied(gettext("Only an organizer records a forfeit."))
    data = _checked(ForfeitForm(request.POST, match=match))
    done = day.score_sheet_forfeit(match_id=match.pk, user=request.user, **data)
    won = done.winner
    if won:
        return gettext("The sheet is forfeited: %(team)s wins.") % {
            "team": done.team(won).name
        }
    return gettext("The sheet is forfeited: both teams lose.")


def _dispute(request, match, roles, sides) -> str:
    if not day.dispute_raiser(roles=roles, sides=sides):
        raise PermissionDenied(
            gettext(
                "Only a captain of either team, a scorer or an organizer raises a "
                "dispute."
            )
        )
    data = _checked(DisputeForm(request.POST))
    dispute = day.score_sheet_dispute_raise(
        match_id=match.pk, user=request.user, roles=roles, sides=sides, **data
    )
    said = gettext(
        "Your dispute is recorded (number %(number)s); an organizer rules on it. "
        "Until then the sheet cannot be confirmed."
    ) % {"number": dispute.pk}
    if dispute.withdrew & sides:
        said += " " + gettext(
            "It withdrew your confirmation of that sheet: confirm it again "
            "after the ruling."
        )
    return said


def _ruling(request, match, roles, sides) -> str:
    if Role.ORGANIZER not in roles:
        raise PermissionDenied(gettext("Only an organizer rules on a dispute."))
    data = _checked(RulingForm(request.POST))
    try:
        day.score_sheet_dispute_rule(
            match_id=match.pk,
            dispute_id=data["dispute"],
            user=request.user,
            ruling=data["ruling"],
        )
    except Dispute.DoesNotExist as missing:
        raise Http404("No such dispute on this sheet") from missing
    return gettext("The ruling is recorded and the dispute closed.")


DAY_ACTIONS = {"forfeit": _forfeit, "dispute": _dispute, "rule": _ruling}


def day_context(match: Match, roles: frozenset[Role], sides, roster=None) -> dict:
    """What the match and score pages show and offer of the tournament day (the
    roster read again unless the page has it)."""
    organizer = Role.ORGANIZER in roles
    return {
        "roster": roster
        if roster is not None
        else match_roster(
            team_a=match.team_a_id,
            team_b=match.team_b_id,
            stage=match.stage,
            round=match.round,
            absent=match.forfeit_absent,
        ),
        "disputes": list(dispute_list(match=match)),
        "can_dispute": bool(
            day.dispute_raiser(roles=roles, sides=sides)
            and match.status != MatchStatus.VOID
        ),
        "can_rule": organizer,
        # Their ids are their own (id_forfeit-reason, id_dispute-deal): the page they
        # join has a deal form's version and deal, a reopening's reason.
        "forfeit_form": ForfeitForm(
            match=match, initial={"version": match.version}, auto_id="id_forfeit-%s"
        )
        if organizer and not match.locked
        else None,
        "dispute_form": DisputeForm(auto_id="id_dispute-%s"),
    }


# A tournament's matches
# ----------------------------------------------------------------------------------
