"""What the periodic tasks and the worker log (issue 30.9e): what happened, not that nothing did.

`make run`'s terminal got about 6,000 lines in 48 minutes of an idle site: beat's "Sending due task",
the worker's "received" and "succeeded" for each run of the sweepers and the matchmaker, and the
matchmaker's own "ladder tick: 0 matches" every ten seconds.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from games.tasks import sweep_overdue_turns
from ladder.tasks import matchmaker_tick
from tests.tute_site.test_settings import run_python
from tournaments.tasks import sweep as tournaments_sweep_task
from tute_site.run_local import programs

#: The loggers of Celery's own per-task lines: the worker's "received", its "succeeded", beat's sends.
TASK_LINE_LOGGERS = ("celery.worker.strategy", "celery.app.trace", "celery.beat")


@pytest.mark.django_db
def test_the_periodic_tasks_log_nothing_when_they_have_nothing_to_do(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Before the fix the matchmaker logged "ladder tick: 0 matches, ..." at INFO on every run."""
    caplog.set_level(logging.INFO)

    # when: each task beat runs finds nothing to do
    assert sweep_overdue_turns() == 0
    assert tournaments_sweep_task() == 0
    assert matchmaker_tick() == 0

    # then: none of them said anything at INFO or above
    assert [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.INFO] == []


PROBE = """
import json, logging
from tute_site.celery import app
import django
django.setup()  # Django's LOGGING, as the worker's Django fixup applies it
app.log.setup(loglevel="INFO")  # then Celery's own logging, as `worker --loglevel=INFO` sets it up
names = json.loads(__import__("sys").argv[1])
print(json.dumps({
    name: [logging.getLogger(name).isEnabledFor(level) for level in (logging.INFO, logging.ERROR)]
    for name in names
}))
"""


@pytest.mark.parametrize("task_lines", ["", "1"])
def test_the_local_worker_keeps_celerys_per_task_lines_quiet_and_the_tasks_own_lines(
    tmp_path: Path, task_lines: str
) -> None:
    """Before the fix the worker `make run` starts (--loglevel=INFO) logged a "received" and a
    "succeeded" line for every task, and beat a line for every send: every few seconds, for tasks that
    found nothing to do. Now those loggers log warnings and errors (a failed task still shows), the
    tasks' own INFO lines still show, and TUTE_LOG_TASK_LINES=1 brings Celery's lines back."""
    # given: the worker and beat `make run` starts, at INFO
    _, (worker, beat) = programs("python", "127.0.0.1", 8000)
    assert "--loglevel=INFO" in worker.argv and "--loglevel=INFO" in beat.argv

    # when: a process sets up logging as that worker does
    names = [*TASK_LINE_LOGGERS, "ladder.tasks", "games.tasks"]
    env = {"DJANGO_DEBUG": "1", **({"TUTE_LOG_TASK_LINES": task_lines} if task_lines else {})}
    probe = run_python(PROBE, env, tmp_path, json.dumps(names))
    assert probe.returncode == 0, probe.stderr
    enabled = json.loads(probe.stdout.strip().splitlines()[-1])

    # then: Celery's per-task lines are off (unless asked for), its errors on, the tasks' own lines on
    for name in TASK_LINE_LOGGERS:
        assert enabled[name] == [bool(task_lines), True], name
    assert enabled["ladder.tasks"] == enabled["games.tasks"] == [True, True]
