"""A real Celery worker process for tests/scoring/apis/test_faults.py, started with
`python -m tests.workers.export_worker`: the project's tasks on the broker of
$FAULT_BROKER_URL and the database of $DATABASE_URL (the test's own), with the
production settings otherwise: a prefork pool (a main process and its child), and
the broker's visibility timeout of 11 minutes, so that a job built again after its
worker was killed was sent again by the periodic resend, not given back by Redis. The
worker embeds Celery beat (`--beat`, one worker at a time in these tests; production
runs the beat as a service of its own), so that it gets the site's periodic tasks.

With FAULT_SLOW set, every step of a workbook build waits that many seconds, so the
test can kill the worker, or take the database away, while a build is under way.
With FAULT_DB_ONCE set (SQLite, which cannot be taken away from one process), the
first build's third step raises the error a lost connection raises.
"""

import os
import tempfile
import time

import django

os.environ["DJANGO_SETTINGS_MODULE"] = "tournament.config.settings"
os.environ["CELERY_BROKER_URL"] = os.environ["FAULT_BROKER_URL"]
django.setup()

from django.db import OperationalError  # noqa: E402

from scoring.excel import services  # noqa: E402
from tournament.config.celery import app  # noqa: E402

SLOW = float(os.environ.get("FAULT_SLOW", "0"))
DB_ONCE = bool(os.environ.get("FAULT_DB_ONCE"))
build = services.tournament_workbook
failed: list[bool] = []


def crawling(*, tournament, progress):
    def step(done: int, total: int) -> None:
        time.sleep(SLOW)
        if DB_ONCE and done >= 3 and not failed:
            failed.append(True)
            raise OperationalError("server closed the connection unexpectedly")
        progress(done, total)

    return build(tournament=tournament, progress=step)


services.tournament_workbook = crawling
app.conf.update(broker_url=os.environ["FAULT_BROKER_URL"], result_backend=None)

if __name__ == "__main__":
    app.worker_main(
        [
            "worker",
            "--pool=prefork",
            "--concurrency=1",
            "--loglevel=" + os.environ.get("FAULT_LOGLEVEL", "warning"),
            "--without-mingle",
            "--without-gossip",
            "--without-heartbeat",
            "--beat",
            "--schedule",
            os.path.join(tempfile.mkdtemp(prefix="fault-beat-"), "schedule"),
        ]
    )
