"""gunicorn's logging, for deploy/start-web: its master's lines (its start, a worker's
timeout) and its workers' ("Error handling request <path>" when a worker is stopped
mid-request) go through the site's own LOGGING (tournament/config/settings.py), as
the site's lines do: one JSON object a line in production, every key cut
(tournament/ops/logs.py; docs/security.md, "Logs"). gunicorn's own handlers would print
them plain, with the path whole."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.config.settings")

from django.conf import settings

logconfig_dict = settings.LOGGING
