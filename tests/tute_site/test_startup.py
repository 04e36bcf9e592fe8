"""Server processes move start-up's objects out of the garbage collector's way before they serve."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from celery.signals import worker_process_init

from tute_site.celery import _freeze_startup_objects

PROJECT_DIR = Path(__file__).resolve().parents[2]


def test_the_wsgi_module_freezes_startup_with_every_view_loaded() -> None:
    # given: a fresh interpreter, as a gunicorn worker is
    script = (
        "import gc, sys\n"
        "import tute_site.wsgi\n"
        "print(gc.get_freeze_count(), 'games.apis' in sys.modules, 'web.views' in sys.modules)\n"
    )
    env = {**os.environ, "DJANGO_DEBUG": "1", "DJANGO_SETTINGS_MODULE": "tute_site.settings"}

    # when: it imports the WSGI module
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=PROJECT_DIR, env=env, capture_output=True, text=True, check=True
    )

    # then: the views were imported before the freeze, and tens of thousands of objects are frozen
    frozen, apis_loaded, web_loaded = out.stdout.split()
    assert int(frozen) > 20_000
    assert apis_loaded == web_loaded == "True"


def test_each_celery_pool_process_freezes_startup() -> None:
    assert _freeze_startup_objects in [ref() for _, ref in worker_process_init.receivers]
