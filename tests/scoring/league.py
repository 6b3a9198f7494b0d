"""Playing league matches to chosen totals, through the API as a scorer would.

A deal gives 1 to 7 points to one side (RULES.md §2, international): `AWARDS` is a
contract for each, seen from the side that receives it. Totals are split into such
deals, so a test can ask for "20-15" and get exactly that on the sheet.
"""

from __future__ import annotations

# points -> (declarer is the receiving side?, value, level, taken)
AWARDS = {
    1: (True, 28, "none", 28),  # made 28..39: 1
    2: (True, 40, "none", 40),  # made 40..47: 2
    3: (True, 48, "none", 50),  # made 48..55: 3
    4: (True, 56, "none", 56),  # made 56: 4
    5: (False, 56, "none", 0),  # 56 defeated: 5 to the defenders
    6: (False, 56, "doubled", 0),  # 5 + 1
    7: (False, 56, "redoubled", 0),  # 5 + 2
}


def _chunks(total: int) -> list[int]:
    chunks = []
    while total > 0:
        chunks.append(min(7, total))
        total -= chunks[-1]
    return chunks


def _split(total_a: int, total_b: int, deals: int | None) -> list[list[int]]:
    """Each side's awards: as few deals as can give the totals, or exactly `deals`
    (a larger award split in two until there are that many)."""
    chunks = [_chunks(total_a), _chunks(total_b)]
    if deals is not None:
        if not len(chunks[0]) + len(chunks[1]) <= deals <= total_a + total_b:
            raise ValueError(f"{total_a}-{total_b} cannot be given in {deals} deals")
        while len(chunks[0]) + len(chunks[1]) < deals:
            side = max(chunks, key=lambda c: max(c, default=0))
            biggest = max(side)
            side.remove(biggest)
            side += [biggest // 2, biggest - biggest // 2]
    return chunks


def deals_for(total_a: int, total_b: int, deals: int | None = None) -> list[dict]:
    """Deal bodies (without version) that give A `total_a` and B `total_b`, in as
    few deals as possible or in exactly `deals`."""
    bodies = []
    chunks = _split(total_a, total_b, deals)
    for side, awards in (("A", chunks[0]), ("B", chunks[1])):
        other = "B" if side == "A" else "A"
        for points in awards:
            own, value, level, taken = AWARDS[points]
            bodies.append(
                {
                    "declarer": side if own else other,
                    "value": value,
                    "trump": "hearts",
                    "level": level,
                    "taken": taken,
                }
            )
    return [{**body, "number": n} for n, body in enumerate(bodies, 1)]


def deal_count(total_a: int, total_b: int) -> int:
    return len(_chunks(total_a)) + len(_chunks(total_b))


def play(api, match_id: int, total_a: int, total_b: int) -> int:
    """Enter the deals giving these totals; the sheet's version after them."""
    url = f"/api/v1/matches/{match_id}/"
    version = api.get(url).json()["version"]
    for body in deals_for(total_a, total_b):
        answer = api.post(url + "deals/", {**body, "version": version}, "json")
        assert answer.status_code == 201, answer.json()
        version = answer.json()["version"]
    return version


def confirm(api, match_id: int) -> None:
    """An organizer confirms (and so locks) the sheet."""
    url = f"/api/v1/matches/{match_id}/"
    version = api.get(url).json()["version"]
    answer = api.post(url + "confirm/", {"version": version}, "json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["status"] == "confirmed"


def play_quickly(
    match_id: int, user, total_a: int, total_b: int, deals: int | None = 18
) -> None:
    """Like `play`, in exactly `deals` deals, through the services (for large
    leagues in tests)."""
    from scoring import services

    version = None
    for body in deals_for(total_a, total_b, deals):
        _, match = services.score_sheet_deal_record(
            match_id=match_id, user=user, version=version, **body
        )
        version = match.version


def drawn_league(tournament, organizer, *, sections: int, per_section: int, seed=1):
    """A league drawn and released over `sections` sections of `per_section` teams;
    its matches, round by round."""
    from scoring import services
    from scoring.models import Match
    from tests.factories import SectionFactory, TeamFactory

    for s in range(sections):
        section = SectionFactory(tournament=tournament, name=f"Region {s + 1}")
        for t in range(per_section):
            TeamFactory(section=section, name=f"Region {s + 1} team {t + 1}")
    services.league_draw_generate(tournament=tournament, user=organizer, seed=seed)
    services.league_rounds_release_all(tournament=tournament, user=organizer)
    return list(Match.objects.filter(tournament=tournament).order_by("round", "table"))
