"""The production settings plus one bare DRF endpoint: the baseline of bench/."""

import os
from pathlib import Path

from tournament.config.settings import *  # noqa: F403

# Each `python -m bench` collects the static files into its own scratch folder (set
# by bench/core.py's Session): two runs at once, as `make test` runs the tiny
# benchmarks' two orders, collecting into one folder took each other's files away
# mid-run (FileNotFoundError in collectstatic's post-processing).
if os.environ.get("BENCH_STATIC_ROOT"):
    STATIC_ROOT = Path(os.environ["BENCH_STATIC_ROOT"])

ROOT_URLCONF = "bench.urls"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
