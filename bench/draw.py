"""The league draw: time for 48, 128 and 500 teams, and success over tight fields.

Pure Python, no database. Each time is the median of several runs and is printed
next to a baseline measured in the same run: one pass over every pair of teams that
asks whether they may meet (a set lookup per pair, N²/2 of them), the least work any
method that looks at the whole field must do. The success rate is over 1,000 random
tight fields (one section holding half of the places, or up to 7 below it; 9 to 64
teams; 8 rounds): how many were drawn, how many the feasibility check refused, and
whether any feasible field failed (it must not).

Usage: python -m bench draw [--tight 1000] [--teams 48,128,500]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bench.core import BenchFailed, Figure, Session
from scoring.domain.draw import (
    DrawError,
    DrawTeam,
    check_draw,
    draw_league,
    draw_problems,
    draw_spread,
)

TINY = ["--tight", "20", "--teams", "48"]
WEIGHTS = [25, 14, 12, 10, 8, 7, 6, 5, 4, 3, 2, 2, 1, 1]  # a big region, a long tail


def realistic(count: int, rng: random.Random) -> list[DrawTeam]:
    """Uneven sections as registrations make them: one a quarter of the field."""
    return [
        DrawTeam(1000 + k, f"Section {rng.choices(range(len(WEIGHTS)), WEIGHTS)[0]}")
        for k in range(count)
    ]


def tight(rng: random.Random) -> list[DrawTeam]:
    count = rng.randint(9, 64)
    places = count + count % 2
    big = max(1, places // 2 - rng.randint(0, 7))
    teams = [DrawTeam(k, "Big") for k in range(big)]
    others = rng.randint(1, 6)
    teams += [DrawTeam(k, f"S{rng.randrange(others)}") for k in range(big, count)]
    return teams


def baseline(teams: list[DrawTeam]) -> int:
    section = {t.key: t.section for t in teams}
    keys = list(section)
    allowed = 0
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            allowed += section[a] != section[b]
    return allowed


def timed(fn, *args, repeat: int = 7) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run(session: Session, argv: list[str]) -> list[Figure]:
    parser = argparse.ArgumentParser(prog="python -m bench draw")
    parser.add_argument("--tight", type=int, default=1000)
    parser.add_argument("--teams", default="48,128,500")
    args = parser.parse_args(argv)
    figures = []
    rng = random.Random(56)
    print("League draw, 8 rounds, realistic uneven sections (median of 7 runs)")
    print(
        f"{'teams':>6} {'sections':>8} {'draw':>9} {'baseline':>9} {'ratio':>7} "
        f"{'restarts':>8} {'spread':>22}"
    )
    for count in [int(n) for n in args.teams.split(",")]:
        teams = realistic(count, rng)
        sections = len({t.section for t in teams})
        base = timed(baseline, teams)
        took = timed(draw_league, teams, 8, 2026)
        draw = draw_league(teams, 8, 2026)
        if check_draw(teams, 8, draw.rounds):
            raise BenchFailed(f"the draw of {count} teams breaks a rule")
        spread = draw_spread(teams, draw.rounds)
        print(
            f"{count:>6} {sections:>8} {took * 1000:>7.1f}ms {base * 1000:>7.1f}ms "
            f"{took / base:>6.1f}× {draw.restarts:>8} "
            f"{spread.mean_sections_met:>5} of {spread.best_mean_sections:<4} "
            f"max {spread.most_from_one_section}"
        )
        figures = [
            Figure(
                "draw",
                f"the draw of {count} teams",
                took * 1000,
                "ms",
                "scan of every pair",
                base * 1000,
            )
        ]
    print("  spread: sections a team meets on average, of the most possible; max: the")
    print("  most opponents any team meets from one section")

    drawn = refused = failed = 0
    restarts: list[int] = []
    start = time.perf_counter()
    for n in range(args.tight):
        teams = tight(rng)
        problems = draw_problems(teams, 8)
        try:
            draw = draw_league(teams, 8, n)
        except DrawError:
            if problems:
                refused += 1
            else:
                failed += 1
            continue
        if check_draw(teams, 8, draw.rounds):
            raise BenchFailed(f"tight field {n}: the draw breaks a rule")
        drawn += 1
        restarts.append(draw.restarts)
    took = time.perf_counter() - start
    print(
        f"\n{args.tight} random tight fields (9-64 teams, one section at half of the "
        f"places or up to 7 below), 8 rounds, {took:.1f} s:"
    )
    print(
        f"  drawn {drawn}, refused by the feasibility check {refused}, failed though "
        f"feasible {failed}; success on feasible fields "
        f"{100 * drawn / max(1, drawn + failed):.1f}%"
    )
    if restarts:
        print(
            f"  restarts after a dead end: mean {statistics.mean(restarts):.2f}, "
            f"max {max(restarts)}, fields needing any {sum(r > 0 for r in restarts)}"
        )
    if failed:
        raise BenchFailed(f"{failed} feasible fields were not drawn")
    return figures
