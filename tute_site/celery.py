"""The Celery app. Workers start with `celery -A tute_site worker`.

Configuration comes from Django's settings, from the names that start with CELERY_ (CELERY_BROKER_URL,
CELERY_TASK_ACKS_LATE, ...). Tasks are found in each installed app's tasks.py.
"""

import logging
import os
from datetime import datetime
from typing import Any

from celery import Celery, bootsteps
from celery.signals import task_postrun, task_prerun, worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tute_site.settings")

log = logging.getLogger(__name__)

app = Celery("tute_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class RequeueOnConnect(bootsteps.StartStopStep):
    """Each time the worker's consumer (re)connects to the broker, queue the house bots' waiting turns
    again (games.requeue_house_bot_turns).

    A broker restart loses the turns queued or delivered while it went down (their publish failed, or
    kombu could not give the unacknowledged ones back), and a worker that died lost the ones it held:
    without this they wait for their deadline and the sweeper (15 s and more for a house bot). A turn
    queued twice is played once.
    """

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def start(self, parent: Any) -> None:
        """Publish on a connection of its own, and never raise: the consumer runs this inside its restart
        after a broker outage, where a step that raises anything but a connection error is an
        "Unrecoverable error" (the worker exits). If even a fresh connection fails, the sweeper (beat)
        finds the waiting turns at their deadlines, so the worker logs it and goes on."""
        try:
            with parent.app.connection_for_write() as connection:
                parent.app.send_task("games.requeue_house_bot_turns", connection=connection)
        except Exception:
            log.exception("could not queue games.requeue_house_bot_turns on (re)connect; the sweeper will")


app.steps["consumer"].add(RequeueOnConnect)


def retried_task(*, name: str, soft_time_limit: int, time_limit: int, max_retries: int) -> Any:
    """The decorator of an idempotent task that must not be lost: acknowledged once it has run (a worker
    that dies mid-task leaves it to another) and retried with backoff while the database is away
    (``OperationalError``)."""
    from celery import shared_task
    from django.db import OperationalError

    return shared_task(
        name=name,
        acks_late=True,
        soft_time_limit=soft_time_limit,
        time_limit=time_limit,
        autoretry_for=(OperationalError,),
        retry_backoff=True,
        max_retries=max_retries,
    )


def queue_on_commit(
    task_name: str, *args: Any, eta: datetime | None = None, queue: str | None = None
) -> None:
    """Queue the task named ``task_name`` with ``args`` once the current transaction commits.

    The one way services queue work: by the task's name, so a services module never imports its tasks
    module (which imports the services), and never before commit, so a worker never sees a row that is
    not there yet. Robust: a broker outage must not turn a committed change into an error or skip the
    other callbacks; each app's sweeper (celery beat) catches up with what was not queued.
    ``eta``: run it then rather than at once; ``queue``: that queue rather than the default one.
    """
    from django.db import transaction

    transaction.on_commit(lambda: app.send_task(task_name, args=args, eta=eta, queue=queue), robust=True)


@task_prerun.connect
@task_postrun.connect
def _close_broken_connections(task: Any = None, **kwargs: Any) -> None:
    """Django's rule for each request, around each task: a connection that failed and no longer answers,
    or is older than CONN_MAX_AGE, is closed, and the next query checks it first (CONN_HEALTH_CHECKS).

    Celery's fix-up does this only every CELERY_DB_REUSE_MAX tasks once reuse is on, so a database
    restart or a terminated backend left a worker process failing every task until then.
    """
    if task is not None and getattr(task.request, "is_eager", False):
        return  # run in the caller's own transaction: its connection is the caller's
    from django.db import close_old_connections

    close_old_connections()


@worker_process_init.connect
def _freeze_startup_objects(**kwargs: Any) -> None:
    """Each pool process: start-up's objects out of the garbage collector's way (tute_site.startup)."""
    from tute_site.startup import freeze_startup_objects

    freeze_startup_objects(load_urls=False)
