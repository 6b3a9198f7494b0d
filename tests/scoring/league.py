"""Playing league matches to chosen totals, through the API as a scorer would.

A deal gives 1 to 7 points to one side (rules.md §2, international): `AWARDS` is a
contract for each, seen from the side that receives it. Totals are split into such
deals, so a test can ask for "20-15" and get exactly that on the sheet.
"""

from __future__ import annotations

from scoring.league import services as league_services
from scoring.models import Bye, Match
from scoring.sheets import services as sheets_services
from tests.conftest import as_user
from tests.factories import SectionFactory, TeamFactory, TournamentFactory, member
from tournament.domain.types import Role

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


def enter(api, match_id: int, bodies: list[dict], *, first: int = 1) -> dict:
    """Enter deal bodies as deals `first`, `first` + 1, ...; the sheet after them."""
    url = f"/api/v1/matches/{match_id}/"
    version = api.get(url).json()["version"]
    for n, body in enumerate(bodies, start=first):
        answer = api.post(
            url + "deals/", {**body, "number": n, "version": version}, "json"
        )
        assert answer.status_code == 201, answer.json()
        version = answer.json()["version"]
    return api.get(url).json()


def play(api, match_id: int, total_a: int, total_b: int) -> int:
    """Enter the deals giving these totals; the sheet's version after them."""
    return enter(api, match_id, deals_for(total_a, total_b))["version"]


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
    version = None
    for body in deals_for(total_a, total_b, deals):
        _, match = sheets_services.score_sheet_deal_record(
            match_id=match_id, user=user, version=version, **body
        )
        version = match.version


def drawn_league(tournament, organizer, *, sections: int, per_section: int, seed=1):
    """A league drawn and released over `sections` sections of `per_section` teams;
    its matches, round by round."""
    for s in range(sections):
        section = SectionFactory(tournament=tournament, name=f"Region {s + 1}")
        for t in range(per_section):
            TeamFactory(section=section, name=f"Region {s + 1} team {t + 1}")
    league_services.league_draw_generate(
        tournament=tournament, user=organizer, seed=seed
    )
    league_services.league_rounds_release_all(tournament=tournament, user=organizer)
    return list(Match.objects.filter(tournament=tournament).order_by("round", "table"))


def sized_league(sections: int, per_section: int, slug: str = "sized-cup"):
    """A 3-round league drawn over `sections` x `per_section` teams, every match
    played to the end: for asserting that a page's queries do not grow with size."""
    tournament = TournamentFactory(slug=slug, league_rounds=3)
    organizer = member(tournament, Role.ORGANIZER)
    matches = drawn_league(
        tournament, organizer, sections=sections, per_section=per_section
    )
    for n, match in enumerate(matches):
        play_quickly(match.pk, organizer, 20 + n % 7, 19 + n % 5)
    return tournament, organizer, matches


def hand_match(league, a, b, round, table, deals):
    """A match of the hand league, set up by the organizer, none of its deals played."""
    return sheets_services.match_create(
        tournament=league["tournament"],
        user=league["organizer"],
        team_a=league[a].pk,
        team_b=league[b].pk,
        round=round,
        table=table,
        deals_scheduled=deals,
    ).pk


def _hand_penalty(api, match, **body):
    version = api.get(f"/api/v1/matches/{match}/").json()["version"]
    answer = api.post(
        f"/api/v1/matches/{match}/penalties/", {**body, "version": version}, "json"
    )
    assert answer.status_code == 201, answer.json()


def hand_league(api):
    """The league of the table in tests/scoring/apis/test_standings.py, played
    through the API; qualifiers 6. Leaves `api` logged out."""
    tournament = TournamentFactory(name="Hand Cup", slug="hand-cup", qualifiers=6)
    league = {"tournament": tournament}
    for n in range(1, 13):
        section = SectionFactory(tournament=tournament, name=f"Section {n}")
        league[f"t{n}"] = TeamFactory(section=section, name=f"t{n}")
    league["organizer"] = member(tournament, Role.ORGANIZER, "org")
    as_user(api, league["organizer"])
    m = league["matches"] = {}
    m["t1"] = hand_match(league, "t1", "t2", 1, 1, deal_count(12, 8))
    m["t3"] = hand_match(league, "t3", "t4", 1, 2, deal_count(14, 8))
    m["t5"] = hand_match(league, "t5", "t6", 1, 3, deal_count(15, 10))
    m["t7"] = hand_match(league, "t7", "t8", 1, 4, deal_count(19, 13))
    m["t9"] = hand_match(league, "t9", "t10", 1, 5, deal_count(15, 15))
    m["t11"] = hand_match(league, "t11", "t12", 2, 1, deal_count(16, 9))
    m["live"] = hand_match(league, "t1", "t2", 2, 2, 2)
    Bye.objects.create(tournament=tournament, round=1, team=league["t11"])
    play(api, m["t1"], 12, 8)
    play(api, m["t3"], 14, 8)
    play(api, m["t5"], 15, 10)
    _hand_penalty(api, m["t5"], deal=1, offender="B", kind="conduct", points=2)
    play(api, m["t7"], 19, 13)
    for _ in range(2):  # B's first is a warning, the second gives A one point
        _hand_penalty(api, m["t7"], deal=2, offender="B", kind="out_of_turn")
    play(api, m["t9"], 15, 15)
    play(api, m["t11"], 16, 9)
    answer = api.post(
        f"/api/v1/matches/{m['live']}/deals/",
        {
            "number": 1,
            "declarer": "A",
            "value": 56,
            "trump": "spades",
            "level": "redoubled",
            "taken": 56,
            "version": 1,
        },
        "json",
    )
    assert answer.status_code == 201
    for key in ("t1", "t5", "t7", "t9", "t11"):
        confirm(api, m[key])
    api.force_authenticate(user=None)
    return league


def finish_hand_league(api, league) -> None:
    """Confirm t3 v t4, and finish the match in play (t1 wins 7-0, which moves t1 up
    to second place and leaves t9 and t10 at places 6 and 7): the league is final.
    Leaves `api` logged out."""
    as_user(api, league["organizer"])
    confirm(api, league["matches"]["t3"])
    live = league["matches"]["live"]
    body = {
        "number": 2,
        "declarer": "A",
        "value": 28,
        "trump": "clubs",
        "level": "none",
        "taken": 30,
        "version": 2,
    }
    answer = api.post(f"/api/v1/matches/{live}/deals/", body, "json")
    assert answer.status_code == 201, answer.json()
    confirm(api, live)
    api.force_authenticate(user=None)


def tables_in_play(slug: str, *, tables: int, deals: int, **settings):
    """A published tournament of 2 x `tables` teams ("Team 0", "Team 1", ...) in two
    sections, round 1 set up by hand at tables 1 to `tables`, and its links
    (docs/links.md): the tournament, its organizer, teams and matches."""
    from scoring.links.services import links_ensure

    tournament = TournamentFactory(
        slug=slug, league_deals=deals, published=True, **settings
    )
    sections = [
        SectionFactory(tournament=tournament, name=name) for name in ("North", "South")
    ]
    teams = [
        TeamFactory(section=sections[n % 2], name=f"Team {n}")
        for n in range(2 * tables)
    ]
    organizer = member(tournament, Role.ORGANIZER, "org")
    matches = [
        sheets_services.match_create(
            tournament=tournament,
            user=organizer,
            team_a=teams[2 * t].pk,
            team_b=teams[2 * t + 1].pk,
            round=1,
            table=t + 1,
        )
        for t in range(tables)
    ]
    links_ensure(tournament=tournament, tables=tables)
    return tournament, organizer, teams, matches


def link_key(tournament, *, table: int | None = None, team=None) -> str:
    """The key of a table's link, or of a team's."""
    from tournament.models import Link, LinkKind

    if table is not None:
        return Link.objects.get(
            tournament=tournament, kind=LinkKind.TABLE, table=table
        ).key
    return Link.objects.get(kind=LinkKind.TEAM, team=team).key
