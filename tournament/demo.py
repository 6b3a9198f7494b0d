"""Loads a demo tournament from a JSON file of fixtures/ through the same services that
registration uses, so the demo obeys every rule a real tournament does."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from django.contrib.auth import get_user_model
from django.db import transaction

from . import services
from .accounts import services as account_services
from .accounts.services import site_role_grant
from .models import SiteRole, Team, Tournament

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
DEMO = FIXTURES / "demo-registration.json"


@transaction.atomic
def demo_load(
    *, path: Path = DEMO, reset: bool = False, data: dict | None = None
) -> tuple[Tournament, list[dict]]:
    """The demo tournament (created unless it exists) and its demo logins; `data`
    instead of the file's when given."""
    if data is None:
        data = json.loads(path.read_text(encoding="utf-8"))
    spec = dict(data["tournament"])
    existing = Tournament.objects.filter(slug=spec["slug"]).first()
    if existing is not None and reset:
        Team.objects.filter(tournament=existing).delete()
        existing.delete()
        existing = None
    users = data.get("users", [])
    if existing is not None:
        return existing, users
    user_model = get_user_model()
    accounts = {}
    for entry in users:
        user, _ = user_model.objects.get_or_create(username=entry["username"])
        user.set_password(entry["password"])
        user.is_staff = bool(entry.get("staff"))
        user.save()
        accounts[entry["username"]] = user
    organizer = next(
        (accounts[u["username"]] for u in users if u["role"] == "organizer"), None
    )
    if organizer is not None:  # the demo's organizer may create tournaments too
        site_role_grant(user=organizer, role=SiteRole.CREATOR)
    if spec.get("starts_on"):
        spec["starts_on"] = date.fromisoformat(spec["starts_on"])
    rated = spec.pop("rated", spec.get("published", False))
    tournament = services.tournament_create(user=organizer, **spec)
    if rated:
        # The demo is the site's own: it counts for the ratings as a tournament a
        # site administrator marked rated (docs/ratings.md), before its teams come,
        # so its players are the people of the other demo tournaments.
        tournament.rated = True
        tournament.save(update_fields=["rated"])
    for section in data.get("sections", []):
        services.section_create(tournament=tournament, **section)
    rows = [
        services.ImportRow(
            number=i, name=t["name"], captain=t["captain"], players=t["players"]
        )
        for i, t in enumerate(data.get("teams", []), start=1)
    ]
    teams = {t.name: t for t in services.team_import(tournament=tournament, rows=rows)}
    for entry in users:
        if entry["role"] == "organizer":
            continue  # tournament_create made the creator its organizer
        account_services.membership_create(
            tournament=tournament,
            username=entry["username"],
            role=entry["role"],
            team=teams[entry["team"]] if entry.get("team") else None,
        )
    return tournament, users
