"""`make run` (tute_site.run_local): supervised web, worker and beat (issue 14).

These start the real thing in a subprocess, on the embedded defaults in a temporary data folder.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

PROJECT_DIR = Path(__file__).resolve().parents[2]
SETTINGS_VARS = ("DJANGO_", "DATABASE_URL", "CELERY_", "TUTE_", "CACHE_URL")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class Run:
    """`python -m tute_site.run_local` in its own session, its output in a file."""

    def __init__(self, data_dir: Path, port: int, *, demo: bool = False) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(SETTINGS_VARS)}
        env.update(
            DJANGO_DEBUG="1",
            TUTE_DATA_DIR=str(data_dir),
            TUTE_PORT=str(port),
            TUTE_DEMO_DATA="1" if demo else "0",
        )
        self.port = port
        self.log_path = data_dir / f"run-{port}-{time.monotonic_ns()}.log"
        self.log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tute_site.run_local"],
            cwd=PROJECT_DIR,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for(self, what: str, pattern: str, timeout: float = 120.0) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            match = re.search(pattern, self.output())
            if match:
                return match
            if self.proc.poll() is not None:
                break
            time.sleep(0.2)
        raise AssertionError(f"no {what} ({pattern!r}); output:\n{self.output()[-4000:]}")

    def pids(self, name: str) -> list[int]:
        return [int(p) for p in re.findall(rf"started {name} \(pid (\d+)\)", self.output())]

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        for name in ("web", "worker", "beat", "demo content"):
            for pid in self.pids(name):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGKILL)
        self.log.close()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is gone for every purpose here
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"


def group_members(pgid: int) -> list[int]:
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(int(stat.parent.name))
    return members


@pytest.fixture
def run(tmp_path: Path) -> Iterator[Run]:
    started = Run(tmp_path, free_port())
    try:
        yield started
    finally:
        started.close()


def test_a_killed_worker_is_restarted_the_web_stays_up_and_ctrl_c_leaves_nothing(
    run: Run, tmp_path: Path
) -> None:
    # given: make run, up
    run.wait_for("the ready line", r"Ctrl-C stops everything")
    run.wait_for("the worker", r"started worker \(pid \d+\)")
    [worker] = run.pids("worker")
    [web] = run.pids("web")
    assert answers(run.port)

    # when: the worker dies
    os.killpg(worker, signal.SIGKILL)

    # then: a line says so, a new worker starts, and the web server answered all along
    run.wait_for("the exit line", rf"worker \(pid {worker}\) exited with status -9; restarting it in \d+ s")
    deadline = time.monotonic() + 30
    while len(run.pids("worker")) < 2 and time.monotonic() < deadline:
        assert answers(run.port), "the web server stopped answering"
        time.sleep(0.2)
    assert len(run.pids("worker")) == 2, run.output()
    assert run.pids("web") == [web] and alive(web)

    # and: a second run on the same data refuses, before any worker of its own starts
    second = Run(tmp_path, free_port())
    try:
        assert second.proc.wait(timeout=60) != 0
        assert "already running" in second.output() and "started worker" not in second.output()
    finally:
        second.close()

    # when: Ctrl-C (SIGINT to the supervisor, as a terminal sends it)
    started = time.monotonic()
    run.proc.send_signal(signal.SIGINT)
    status = run.proc.wait(timeout=30)

    # then: everything stopped within seconds, and no process of any program's group is left
    assert status == 0, run.output()
    assert time.monotonic() - started < 10
    pids = run.pids("web") + run.pids("worker") + run.pids("beat")
    assert len(pids) >= 4
    assert [pid for pid in pids if group_members(pid)] == [], run.output()
    assert not answers(run.port)


def test_a_port_in_use_exits_non_zero_before_any_worker_starts(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = int(taken.getsockname()[1])
        run = Run(tmp_path, port)
        try:
            status = run.proc.wait(timeout=60)
        finally:
            run.close()
    assert status != 0
    assert f"port {port} on 127.0.0.1 is already in use" in run.output()
    assert "started" not in run.output()


def test_a_port_left_in_time_wait_by_the_last_run_is_free_and_a_listening_one_is_not() -> None:
    """Issue 30: a second `make run` right after Ctrl-C found the port "in use" while nothing listened."""
    from tute_site.run_local import StartError, check_port

    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    port = int(server.getsockname()[1])
    server.listen()
    with pytest.raises(StartError, match="already in use"):
        check_port("127.0.0.1", port)
    client = socket.create_connection(("127.0.0.1", port))
    accepted, _ = server.accept()
    accepted.close()  # the server side closes first: its end of the connection stays in TIME_WAIT
    client.close()
    server.close()
    check_port("127.0.0.1", port)


def test_the_site_answers_before_the_demo_content_is_made_and_ctrl_c_stops_it_too(tmp_path: Path) -> None:
    """Issue 30: the first `make run` kept its page away for minutes while it built the demo content.

    That the content is finished once, resumed where a stop left it and left alone on a rerun is
    tests/web/test_demo_data.py's; that a one-shot program is not restarted, tests/tute_site/test_supervisor.py's.
    """
    # given: a first make run on fresh data, demo content on
    first = Run(tmp_path, free_port(), demo=True)
    try:
        # then: the page answers while the demo content is still being made, with a line per match
        first.wait_for("the ready line", r"Ctrl-C stops everything")
        assert answers(first.port)
        first.wait_for("the demo content starting", r"started demo content \(pid \d+\)")
        first.wait_for("a progress line", r"demo content: 1/29 matches played")
        assert "demo content finished" not in first.output()
        assert answers(first.port)
        [demo] = first.pids("demo content")

        # when: Ctrl-C in the middle of it
        first.proc.send_signal(signal.SIGINT)

        # then: it stops with the rest, nothing left of it, and it is not reported as failed
        assert first.proc.wait(timeout=30) == 0, first.output()
        assert group_members(demo) == [], first.output()
        assert not re.search(r"demo content (failed|\(pid \d+\) exited)", first.output())
    finally:
        first.close()
