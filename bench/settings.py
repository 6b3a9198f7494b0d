"""The production settings plus one bare DRF endpoint: the baseline of bench/."""

from tournament.config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
