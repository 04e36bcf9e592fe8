"""tute_site.supervisor: what `make run` does with a program that exits (issues 14, 30)."""

from __future__ import annotations

import sys
import threading
import time

import pytest

from tute_site.supervisor import Program, Supervisor


def test_a_one_shot_program_runs_once_and_its_end_is_logged_while_a_server_is_restarted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # given: two one-shot jobs (one succeeds, one fails) and a server that exits at once
    done = Program("job", [sys.executable, "-c", "print('job ran', flush=True)"], restart=False)
    failed = Program("bad job", [sys.executable, "-c", "raise SystemExit(3)"], restart=False)
    server = Program("server", [sys.executable, "-c", "pass"])
    supervisor = Supervisor([])
    for program in (done, failed, server):
        supervisor.start(program)

    # when: the supervisor watches them for a while
    watcher = threading.Thread(target=supervisor.run)
    watcher.start()
    deadline = time.monotonic() + 30
    while not (done.finished and failed.finished and server.restarts >= 1) and time.monotonic() < deadline:
        time.sleep(0.1)
    supervisor.stopping = True
    watcher.join(timeout=30)

    # then: the jobs ran once each, their ends logged; the server was restarted
    err = capsys.readouterr().err
    assert done.finished and failed.finished and server.restarts >= 1, err
    assert done.restarts == failed.restarts == 0
    assert err.count("started job ") == 1 and err.count("started bad job ") == 1
    assert "run_local: job finished" in err
    assert "run_local: bad job failed with status 3" in err
    assert "server (pid" in err and "restarting it in 1 s" in err
