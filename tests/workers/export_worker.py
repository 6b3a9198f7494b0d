"""A real Celery worker process for tests/scoring/apis/test_faults.py, started with
`python -m tests.workers.export_worker`: the project's tasks on the broker of
$FAULT_BROKER_URL and the database of $DATABASE_URL (the test's own).

With FAULT_SLOW set, every step of a workbook build waits that many seconds, so the
test can kill the process while a build is under way. Redis gives an unacknowledged
task back after 2 s (visibility_timeout), looked for every second, so a killed
worker's task comes back within the test (in production: after 11 minutes).
"""

import os
import time

import django

os.environ["DJANGO_SETTINGS_MODULE"] = "tournament.config.settings"
os.environ["CELERY_BROKER_URL"] = os.environ["FAULT_BROKER_URL"]
django.setup()

from scoring.excel import services  # noqa: E402
from tournament.config.celery import app  # noqa: E402

SLOW = float(os.environ.get("FAULT_SLOW", "0"))

if SLOW:
    build = services.tournament_workbook

    def crawling(*, tournament, progress):
        def step(done: int, total: int) -> None:
            time.sleep(SLOW)
            progress(done, total)

        return build(tournament=tournament, progress=step)

    services.tournament_workbook = crawling

app.conf.update(
    broker_url=os.environ["FAULT_BROKER_URL"],
    result_backend=None,
    task_always_eager=False,
    broker_transport_options={
        "visibility_timeout": 2,
        "unacked_restore_interval": 1,
        "unacked_restore_throttle": 1,
    },
)

if __name__ == "__main__":
    app.worker_main(
        [
            "worker",
            "--pool=solo",
            "--concurrency=1",
            "--loglevel=" + os.environ.get("FAULT_LOGLEVEL", "warning"),
            "--without-mingle",
            "--without-gossip",
            "--without-heartbeat",
        ]
    )
