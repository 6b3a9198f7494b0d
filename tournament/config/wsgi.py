"""WSGI entry point: `gunicorn tournament.config.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.config.settings")

application = get_wsgi_application()
