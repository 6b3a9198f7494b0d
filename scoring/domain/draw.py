"""The league draw (rules.md §5): every round at once, reproducible from a seed.

What it computes: for teams in sections and a number of rounds R, R rounds in which
every team plays once, never a team of its own section, never the same opponent
twice; with an odd count one team per round has a bye and no team has two. Which team
of a pairing is A, and the table numbers, are part of the draw. `check_draw` validates
any draw against the same rules; `draw_spread` measures how widely a team's opponents
come from different sections.

What it does not: store anything, know about Django, or decide sections.

How (../shared/docs/DRAW.md has the measurements behind it):
- Teams are vertices; a pair of teams of different sections is an edge; a round is a
  perfect matching, and the draw is R edge-disjoint perfect matchings. An odd count
  gets one BYE vertex in a section of its own: whoever meets it sits out, and because
  no pair repeats, nobody gets two byes.
- First, round by round: the teams with the fewest opponents left choose first, each
  takes an opponent from a section it has met least (the spread), ties broken by a
  hash of (seed, attempt, round, team key) with blake2b, so the same input gives the
  same draw on any machine and any Python. When the greedy pass leaves teams
  unpaired, augmenting paths (Edmonds' blossom algorithm) complete the round if any
  completion exists. A dead end (no perfect matching left) restarts with attempt + 1.
- Before drawing, `draw_problems` says in words why no draw can exist, when none
  can: a section with more than half of the places, a team with fewer outside
  opponents than rounds, or the largest sections together needing more matches
  against the rest than the rest can play (Tutte's f-factor condition). The tests
  show, over every section split of up to 20 teams, that a draw is found exactly when
  these pass; random and adversarial fields up to 500 teams back that up.

Vocabulary: a team's `key` is its stable id; `section` is its section's name; a
`Pairing` is one match of a round at a table; `attempt` counts restarts.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tournament.domain.errors import RuleError, Words, filled, marked

ALGORITHM = "56-draw/1"  # changes whenever the same input could give another draw

MATCHING_ATTEMPTS = 40  # at least; small fields get more (attempts_allowed)
SCAN_LIMIT = 48  # candidates a team weighs for the spread before it settles


class DrawError(RuleError):
    """No draw can be made; the message says why in an organizer's words."""


@dataclass(frozen=True)
class DrawTeam:
    key: int
    section: str


@dataclass(frozen=True)
class Pairing:
    table: int
    team_a: int
    team_b: int


@dataclass(frozen=True)
class DrawRound:
    number: int
    pairings: tuple[Pairing, ...]
    bye: int | None = None


@dataclass(frozen=True)
class Draw:
    seed: int
    algorithm: str
    rounds: tuple[DrawRound, ...]
    restarts: int  # attempts that met a dead end before this one


@dataclass(frozen=True)
class SectionSize:
    section: str
    teams: int


@dataclass(frozen=True)
class Spread:
    """How widely opponents come from different sections (DRAW.md's two measures)."""

    most_from_one_section: int  # the most opponents any team meets from one section
    mean_sections_met: float  # distinct sections a team's opponents come from, mean
    best_mean_sections: float  # the same if every team met a new section each match
    meetings: tuple[tuple[str, float], ...]  # section → mean meetings per outsider


# Feasibility
# ----------------------------------------------------------------------------------


def section_sizes(teams: Sequence[DrawTeam]) -> list[SectionSize]:
    """Sections by size, largest first (names break ties)."""
    counts: dict[str, int] = {}
    for team in teams:
        counts[team.section] = counts.get(team.section, 0) + 1
    return [
        SectionSize(name, n)
        for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def _teams(count: int) -> Words:
    """'1 team' or '5 teams', as a refusal says it."""
    return filled(
        marked("1 team") if count == 1 else marked("%(count)s teams"),
        count=count,
    )


def draw_problems(teams: Sequence[DrawTeam], rounds: int) -> list[DrawError]:
    """Every reason no draw can exist, in an organizer's words; empty when one does.

    Two conditions decide it (DRAW.md, Feasibility; the tests check by exhaustive
    search that nothing else can stop a draw of up to 20 teams, and by random and
    adversarial fields up to 500 teams that the draw succeeds whenever both hold):
    a section with more than half of the places (teams, plus the bye when the count
    is odd) leaves some of its teams without an outside opponent in every round; and
    a team needs a new outside opponent (or its one bye) in each of the rounds.
    """
    problems: list[DrawError] = []
    count = len(teams)
    if rounds < 1:
        problems.append(
            DrawError(
                "no_rounds",
                marked("the league needs at least one round"),
                field="rounds",
            )
        )
    if count < 2:
        problems.append(
            DrawError(
                "too_few_teams",
                marked("a league needs at least 2 teams; 1 team is registered")
                if count == 1
                else marked("a league needs at least 2 teams; none is registered"),
                teams=count,
            )
        )
        return problems
    places = count + count % 2
    bye_note = marked(" (counting the bye, as the count is odd)") if count % 2 else ""
    sizes = section_sizes(teams)
    largest = sizes[0]
    if len(sizes) == 1:
        problems.append(
            DrawError(
                "one_section",
                filled(
                    marked(
                        "all %(count)s teams are in section %(section)s; in the league "
                        "no team meets a team of its own section, so "
                        "nobody could play. Define the other sections and move teams "
                        "into them."
                    ),
                    count=count,
                ),
                section=largest.section,
            )
        )
        return problems
    half = places // 2
    if largest.teams > half:
        problems.append(
            DrawError(
                "section_too_large",
                filled(
                    marked(
                        "section %(section)s has %(teams)s of the %(count)s teams; at "
                        "most %(limit)s can be drawn%(bye_note)s, because in every "
                        "round each of its teams must meet a team from another "
                        "section. Move %(excess)s to other sections, or register more "
                        "teams elsewhere."
                    ),
                    count=count,
                    bye_note=bye_note,
                    excess=_teams(largest.teams - half),
                ),
                section=largest.section,
                teams=largest.teams,
                limit=half,
            )
        )
    outside = places - largest.teams
    if not problems and rounds >= 1 and outside >= rounds:
        crowded = _crowded_sections(sizes, places, rounds, odd=count % 2 == 1)
        if crowded is not None:
            problems.append(crowded)
    if rounds >= 1 and outside < rounds:
        bye = marked(" or a bye") if count % 2 else ""
        problems.append(
            DrawError(
                "too_few_opponents",
                filled(
                    marked(
                        "each team of section %(section)s can meet only %(outside)s "
                        "from other sections%(bye)s, but plays %(rounds)s rounds and "
                        "may not meet a team twice. Draw at most %(opponents)s rounds, "
                        "or move teams out of %(section)s."
                    ),
                    outside=_teams(count - largest.teams),
                    bye=bye,
                ),
                section=largest.section,
                opponents=outside,
                rounds=rounds,
            )
        )
    return problems


def _crowded_sections(
    sizes: list[SectionSize], places: int, rounds: int, *, odd: bool
) -> DrawError | None:
    """The largest sections together leave too few matches for the rest.

    Take T, the j largest sections, and S, every other place (with the bye). A team
    of a section of size m in T can meet at most |T| − m teams of T, so it needs at
    least R − (|T| − m) matches against S; S's places play at most R matches each.
    When the need exceeds R·|S| no draw exists (Tutte's f-factor condition; j = 1 is
    "more than half of the places"). Example: sections of 6, 6 and 1 over 8 rounds:
    every team of the two sixes must meet the lone team, 12 matches in 8 rounds.
    """
    taken = 0
    # With an odd count every section may be in T: the bye alone is then S (sections
    # 3/3/3 over 7 rounds: each of the 9 teams must have the bye).
    for j in range(1, len(sizes) + odd):
        group = sizes[:j]
        taken += group[-1].teams
        rest = places - taken
        need = sum(s.teams * max(0, rounds - (taken - s.teams)) for s in group)
        if need > rounds * rest:
            names = filled(
                marked("%(sections)s and %(last)s"),
                sections=", ".join(s.section for s in group[:-1]),
                last=group[-1].section,
            )
            others = places - taken - odd
            if others:
                short = filled(
                    marked(
                        "need at least %(need)s matches against the other "
                        "%(others)s and the bye, which can play only %(most)s"
                    )
                    if odd
                    else marked(
                        "need at least %(need)s matches against the other "
                        "%(others)s, which can play only %(most)s"
                    ),
                    need=need,
                    others=_teams(others),
                    most=rounds * rest,
                )
            else:
                short = filled(
                    marked(
                        "need at least %(need)s byes, and a round has one bye "
                        "(%(rounds)s in all)"
                    ),
                    need=need,
                    rounds=rounds,
                )
            return DrawError(
                "sections_too_large",
                filled(
                    marked(
                        "sections %(names)s hold %(taken)s of the %(places)s teams, "
                        "and their teams cannot meet each other often enough: over "
                        "%(rounds)s rounds they %(short)s. Move teams out of these "
                        "sections, or draw fewer rounds."
                    ),
                    names=names,
                    taken=taken,
                    places=places - odd,
                    rounds=rounds,
                    short=short,
                ),
                sections=[s.section for s in group],
                need=need,
                available=rounds * rest,
            )
    return None


def check_draw_possible(teams: Sequence[DrawTeam], rounds: int) -> None:
    """Raises the first `DrawError` of `draw_problems`, naming the section."""
    problems = draw_problems(teams, rounds)
    if problems:
        raise problems[0]


# The draw
# ----------------------------------------------------------------------------------


def _hash(*parts: object) -> int:
    text = "|".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class _Field:
    """The teams as vertices 0..n-1 (sorted by key; the bye last), their sections and
    the bitmask of opponents each may meet."""

    def __init__(self, teams: Sequence[DrawTeam], rounds: int) -> None:
        ordered = sorted(teams, key=lambda t: t.key)
        keys = [t.key for t in ordered]
        if len(set(keys)) != len(keys):
            raise AssertionError("team keys must be unique")
        self.keys: list[int | None] = [*keys]
        names = [t.section for t in ordered]
        if len(ordered) % 2:
            self.keys.append(None)  # the bye
            names.append("\0bye")
        self.n = len(self.keys)
        self.rounds = rounds
        index: dict[str, int] = {}
        self.sec = [index.setdefault(name, len(index)) for name in names]
        members = [0] * len(index)
        for v, s in enumerate(self.sec):
            members[s] |= 1 << v
        everyone = (1 << self.n) - 1
        self.allow = [everyone & ~members[self.sec[v]] for v in range(self.n)]
        self.section_count = len(index)

    def label(self, v: int) -> object:
        key = self.keys[v]
        return "bye" if key is None else key


class _DeadEnd(Exception):
    pass


def _round_matching(
    field: _Field,
    met: list[int],
    met_sec: list[dict[int, int]],
    r: int,
    salt: tuple[int, int],
    *,
    spread: bool,
) -> list[int]:
    """One round: a perfect matching of unmet opponents from different sections, or
    `_DeadEnd` when none exists. Returns mate[v] for every vertex. With `spread`,
    each team prefers an opponent from a section it has met least."""
    n, rounds = field.n, field.rounds
    avail = [field.allow[v] & ~met[v] for v in range(n)]
    priority = [_hash(*salt, r, field.label(v)) for v in range(n)]
    left = rounds - r
    # Tightest first: the teams with the least room to spare choose first.
    choosers = sorted(
        range(n), key=lambda v: (avail[v].bit_count() - left, priority[v])
    )
    # A linked list of unpaired vertices in priority order: removal is O(1).
    order = sorted(range(n), key=lambda v: priority[v])
    nxt = dict(itertools.pairwise(order))
    prv = {b: a for a, b in itertools.pairwise(order)}
    head: int | None = order[0] if order else None
    mate = [-1] * n

    def unlink(v: int) -> None:
        nonlocal head
        p, q = prv.pop(v, None), nxt.pop(v, None)
        if p is None:
            head = q
        else:
            nxt[p] = q  # type: ignore[assignment]
        if q is not None:
            if p is None:
                prv.pop(q, None)
            else:
                prv[q] = p

    for v in choosers:
        if mate[v] >= 0:
            continue
        best, best_score, seen = -1, 0, 0
        u = head
        while u is not None and seen < SCAN_LIMIT:
            if u != v and avail[v] >> u & 1:
                score = (
                    met_sec[v].get(field.sec[u], 0) + met_sec[u].get(field.sec[v], 0)
                    if spread
                    else 0
                )
                if best < 0 or score < best_score:
                    best, best_score = u, score
                    if score == 0:
                        break
                seen += 1
            u = nxt.get(u)
        if best >= 0:
            mate[v], mate[best] = best, v
            unlink(v)
            unlink(best)
    if -1 in mate:
        _complete(n, avail, mate)
    return mate


def _complete(n: int, avail: list[int], mate: list[int]) -> None:
    """Grows `mate` to a perfect matching by augmenting paths (Edmonds' blossoms), or
    raises `_DeadEnd` when the graph `avail` has none."""
    adjacency: dict[int, list[int]] = {}

    def adj(v: int) -> list[int]:
        if v not in adjacency:
            adjacency[v] = list(_bits(avail[v]))
        return adjacency[v]

    for root in range(n):
        if mate[root] == -1 and not _augment(n, adj, mate, root):
            raise _DeadEnd


def _augment(n: int, adj, mate: list[int], root: int) -> bool:  # type: ignore[no-untyped-def]
    """One search for an augmenting path from `root` (the classic O(V·E) blossom
    search); flips the path into `mate` and returns True when it finds one."""
    used = [False] * n
    parent = [-1] * n
    base = list(range(n))
    used[root] = True
    queue = [root]

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    i = 0
    while i < len(queue):
        v = queue[i]
        i += 1
        for to in adj(v):
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                cur = lca(v, to)
                blossom = [False] * n
                mark(v, cur, to, blossom)
                mark(to, cur, v, blossom)
                for k in range(n):
                    if blossom[base[k]]:
                        base[k] = cur
                        if not used[k]:
                            used[k] = True
                            queue.append(k)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    while to != -1:
                        pv = parent[to]
                        ppv = mate[pv]
                        mate[to], mate[pv] = pv, to
                        to = ppv
                    return True
                used[mate[to]] = True
                queue.append(mate[to])
    return False


def _by_matching(
    field: _Field, seed: int, attempt: int, *, spread: bool | None = None
) -> list[list[int]]:
    """Every round, one after the other; `_DeadEnd` when a round cannot be paired.
    Every other attempt pairs by the hash alone: the spread preference itself can
    paint a tight field into a corner (sections 2/2/2 over 3 rounds: two perfectly
    spread rounds leave two triangles, which no round can pair)."""
    if spread is None:
        spread = attempt % 2 == 0
    met = [0] * field.n
    met_sec: list[dict[int, int]] = [{} for _ in range(field.n)]
    rounds = []
    for r in range(field.rounds):
        mate = _round_matching(field, met, met_sec, r, (seed, attempt), spread=spread)
        for v, u in enumerate(mate):
            met[v] |= 1 << u
            s = field.sec[u]
            met_sec[v][s] = met_sec[v].get(s, 0) + 1
        rounds.append(mate)
    return rounds


def draw_league(teams: Sequence[DrawTeam], rounds: int, seed: int) -> Draw:
    """The whole league for `teams` over `rounds` rounds (rules.md §5), from `seed`.

    Raises `DrawError` when no draw exists, saying why (see `draw_problems`).
    """
    check_draw_possible(teams, rounds)
    field = _Field(teams, rounds)
    for attempt in range(attempts_allowed(len(teams))):
        try:
            mates = _by_matching(field, seed, attempt)
        except _DeadEnd:
            continue
        return Draw(seed, ALGORITHM, _rounds(field, mates, seed), attempt)
    raise DrawError(
        "draw_not_found",
        filled(
            marked(
                "%(attempts)s attempts with seed %(seed)s met a dead end; this field "
                "is extraordinarily tight. Draw again with another seed, or move a "
                "team between sections."
            ),
            attempts=attempts_allowed(len(teams)),
        ),
        seed=seed,
    )


def attempts_allowed(teams: int) -> int:
    """Restarts are cheap for small fields, where tight section splits need them
    (up to 85% of attempts meet a dead end there); large fields rarely need one."""
    return max(MATCHING_ATTEMPTS, 20_000 // max(teams, 1))


def _rounds(field: _Field, mates: list[list[int]], seed: int) -> tuple[DrawRound, ...]:
    """Pairings with team A chosen to even out A and B, tables in a seeded order."""
    as_a: dict[int, int] = {}
    out = []
    for r, mate in enumerate(mates, start=1):
        bye = None
        pairs: list[tuple[int, int]] = []
        for v, u in enumerate(mate):
            if v > u:
                continue
            a, b = field.keys[v], field.keys[u]
            if a is None or b is None:
                bye = b if a is None else a
                continue
            ha, hb = _hash(seed, "a", r, a), _hash(seed, "a", r, b)
            if (as_a.get(a, 0), ha) > (as_a.get(b, 0), hb):
                a, b = b, a
            as_a[a] = as_a.get(a, 0) + 1
            pairs.append((a, b))
        pairs.sort(key=lambda p: _hash(seed, "table", r, p[0], p[1]))
        out.append(
            DrawRound(
                r,
                tuple(Pairing(t, a, b) for t, (a, b) in enumerate(pairs, start=1)),
                bye,
            )
        )
    return tuple(out)


# Checking and measuring a draw
# ----------------------------------------------------------------------------------


def check_draw(
    teams: Sequence[DrawTeam], rounds: int, draw: Sequence[DrawRound]
) -> list[str]:
    """Every way a stored draw breaks the rules of rules.md §5; empty when it is valid.

    Independent of `draw_league`: it checks the result, not the method.
    """
    problems: list[str] = []
    section = {t.key: t.section for t in teams}
    odd = len(teams) % 2 == 1
    numbers = [r.number for r in draw]
    if sorted(numbers) != list(range(1, rounds + 1)):
        problems.append(
            f"the draw has rounds {sorted(numbers)}; the league has rounds 1 to "
            f"{rounds}"
        )
    met: dict[frozenset[int], int] = {}
    byes: dict[int, int] = {}
    for rnd in sorted(draw, key=lambda r: r.number):
        where = f"round {rnd.number}"
        seen: dict[int, str] = {}

        def place(
            team: int, what: str, where: str = where, seen: dict[int, str] = seen
        ) -> None:
            if team not in section:
                problems.append(f"{where}: team {team} is not in the tournament")
            elif team in seen:
                problems.append(
                    f"{where}: team {team} plays twice ({seen[team]}, {what})"
                )
            else:
                seen[team] = what

        tables = [p.table for p in rnd.pairings]
        if sorted(tables) != list(range(1, len(tables) + 1)):
            problems.append(
                f"{where}: tables are {sorted(tables)}, not 1 to {len(tables)}"
            )
        for p in rnd.pairings:
            place(p.team_a, f"table {p.table}")
            place(p.team_b, f"table {p.table}")
            if p.team_a == p.team_b:
                continue
            if p.team_a in section and section[p.team_a] == section.get(p.team_b):
                problems.append(
                    f"{where}, table {p.table}: teams {p.team_a} and {p.team_b} are "
                    f"both in section {section[p.team_a]}"
                )
            pair = frozenset((p.team_a, p.team_b))
            if pair in met:
                problems.append(
                    f"{where}, table {p.table}: teams {p.team_a} and {p.team_b} met "
                    f"already in round {met[pair]}"
                )
            else:
                met[pair] = rnd.number
        if rnd.bye is not None:
            place(rnd.bye, "the bye")
            if not odd:
                problems.append(f"{where}: a bye, though the count of teams is even")
            elif rnd.bye in byes:
                problems.append(
                    f"{where}: team {rnd.bye} has a second bye (the first in round "
                    f"{byes[rnd.bye]})"
                )
            else:
                byes[rnd.bye] = rnd.number
        elif odd:
            problems.append(f"{where}: no bye, though the count of teams is odd")
        missing = sorted(set(section) - set(seen))
        if missing:
            shown = ", ".join(str(k) for k in missing[:5])
            problems.append(f"{where}: teams {shown} have no match and no bye")
    return problems


def opponents(draw: Sequence[DrawRound]) -> dict[int, list[int | None]]:
    """Each team's opponents in round order (None for its bye)."""
    out: dict[int, list[int | None]] = {}
    for rnd in sorted(draw, key=lambda r: r.number):
        for p in rnd.pairings:
            out.setdefault(p.team_a, []).append(p.team_b)
            out.setdefault(p.team_b, []).append(p.team_a)
        if rnd.bye is not None:
            out.setdefault(rnd.bye, []).append(None)
    return out


def draw_spread(teams: Sequence[DrawTeam], draw: Sequence[DrawRound]) -> Spread:
    """DRAW.md's two measures, the bound of the second, and how often an outsider
    meets each section on average (some imbalance is forced by section sizes)."""
    section = {t.key: t.section for t in teams}
    sizes = section_sizes(teams)
    met = opponents(draw)
    most, distinct, best = 0, 0, 0
    meetings: dict[str, int] = {s.section: 0 for s in sizes}
    for team in section:
        counts: dict[str, int] = {}
        played = 0
        for other in met.get(team, []):
            if other is None:
                continue
            played += 1
            counts[section[other]] = counts.get(section[other], 0) + 1
        for name, c in counts.items():
            meetings[name] += c
        most = max(most, *counts.values(), 0)
        distinct += len(counts)
        best += min(played, len(sizes) - 1)
    count = len(section) or 1
    return Spread(
        most_from_one_section=most,
        mean_sections_met=round(distinct / count, 2),
        best_mean_sections=round(best / count, 2),
        meetings=tuple(
            (s.section, round(meetings[s.section] / max(1, count - s.teams), 2))
            for s in sizes
        ),
    )
