"""`python -m bench [name]`: run the benchmarks and print their figures.

Names: `draw` (the league draw, pure Python), `deal_api` (a deal through the API on
PostgreSQL with gunicorn), `standings` (the standings of 500 teams on SQLite
and PostgreSQL), `knockout` (seeding, the bracket and confirming a knockout sheet, on
both), `export` (the tournament workbook of 100 and 500 teams: time and peak
memory, on both), `load` (tournament day: 50 scorers at once on gunicorn, PostgreSQL
and a Celery worker on Redis, every sheet checked after), `backup` (backup,
restore and the automatic backup of a reopening, 500 teams, on both). With no
name, all of them, one after the other.
"""

import sys

from bench import backup, deal_api, draw, export, knockout, load, standings

BENCHES = {
    "draw": draw.main,
    "deal_api": deal_api.main,
    "standings": standings.main,
    "knockout": knockout.main,
    "export": export.main,
    "load": load.main,
    "backup": backup.main,
}

if __name__ == "__main__":
    names = [a for a in sys.argv[1:] if a in BENCHES]
    rest = [a for a in sys.argv[1:] if a not in BENCHES]
    for name in names or list(BENCHES):
        print(f"== {name}")
        BENCHES[name](rest)
