"""Sending a task to the worker's queue from a request (docs/deploy.md, "When Redis or
the worker dies").

A task queued when a write commits is what follows the write, never its condition:
by the time it is sent the write is saved, and a broker that is down must not turn
that into a 500. So a task is sent through `task_send`, which gives the broker about
a second (the settings' REDIS_TIMEOUT_SECONDS and publish retry policy), and when it
cannot be reached logs one warning line saying what is missed meanwhile, and answers
False for the caller that has more to say (a workbook's job is marked failed).

Nothing sent here is waited for: its result is not kept (a request never reads it),
which also spares the send a round trip to the result backend, a Redis that may be
the same dead one. With eager Celery (the embedded default, no broker) the task runs
here and now, and its errors propagate as any code's do.
"""

from __future__ import annotations

import logging
from functools import partial

from celery import Task, current_app
from django.db import transaction

logger = logging.getLogger(__name__)


def task_send(task: Task | str, *args, missed: str) -> bool:
    """Send `task` (or the task of that name, so that a service need not import the
    tasks that call it back) with `args`; False when the worker's queue cannot be
    reached, with one warning line that ends with `missed`: what happens instead."""
    if isinstance(task, str):
        task = current_app.tasks[task]  # every app's ready() imports its tasks
    if task.app.conf.task_always_eager:
        task.delay(*args)
        return True
    try:
        task.apply_async(args, ignore_result=True)
    except Exception as error:  # whatever the broker raised: the write is saved
        logger.warning(
            "task %s not sent: the worker's queue cannot be reached (%s: %s); %s",
            task.name,
            type(error).__name__,
            error,
            missed,
        )
        return False
    return True


def task_send_on_commit(task: Task | str, *args, missed: str) -> None:
    """`task_send` once the current transaction commits (at once outside one)."""
    transaction.on_commit(partial(task_send, task, *args, missed=missed))
