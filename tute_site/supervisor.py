"""A small process supervisor for `make run` (issue 14): web, worker and beat on one machine.

What `make run` needs and a Procfile runner does not give: honcho (and foreman) stop every process when
one exits, which is what left the browser with "connection refused" when the worker died. Here:

- each program runs in its own session (process group), so a terminal's Ctrl-C reaches only this
  supervisor, which then stops the programs in order;
- a program that exits unasked is restarted after a back-off (1 s, doubling up to 30 s, back to 1 s
  after a minute up), with a line in the log; the others keep running. A one-shot program (``restart``
  false: the demo content, loaded behind the running site) is run once; its exit is logged, not undone;
- stopping sends SIGTERM to a program's main process only when ``term_group`` is false (the Celery
  worker: its parent stops its own pool, which a TERM to the whole group would kill under it), to its
  whole group otherwise (the dev server and its autoreloader child), then SIGKILL to the group after
  ``stop_timeout`` seconds, so that nothing is left behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import FrameType

BACKOFF_FIRST = 1.0
BACKOFF_MAX = 30.0
#: A program up this long is healthy again: its next restart waits BACKOFF_FIRST.
HEALTHY_AFTER = 60.0
POLL_SECONDS = 0.2


def log(message: str) -> None:
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    print(f"[{stamp}] run_local: {message}", file=sys.stderr, flush=True)


@dataclass
class Program:
    name: str
    argv: Sequence[str]
    #: SIGTERM to the whole process group (True) or to the main process only (False).
    term_group: bool = True
    stop_timeout: float = 10.0
    env: Mapping[str, str] | None = None
    #: Restart it when it exits unasked (a server), or let it finish (a one-shot job).
    restart: bool = True
    proc: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    started_at: float = 0.0
    backoff: float = BACKOFF_FIRST
    restart_at: float | None = None
    restarts: int = 0
    #: A one-shot program that has exited, and been logged as such.
    finished: bool = False

    def start(self) -> None:
        self.proc = subprocess.Popen(
            list(self.argv), env=dict(self.env) if self.env else None, start_new_session=True
        )
        self.started_at = time.monotonic()
        self.restart_at = None
        log(f"started {self.name} (pid {self.proc.pid}): {' '.join(self.argv)}")

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def signal(self, signum: int, *, group: bool) -> None:
        if self.proc is None:
            return
        try:
            if group:
                os.killpg(self.proc.pid, signum)
            elif self.proc.poll() is None:
                self.proc.send_signal(signum)
        except ProcessLookupError:
            pass


class Supervisor:
    """Starts programs, restarts the ones that die, stops them all on SIGINT/SIGTERM."""

    def __init__(self, programs: Sequence[Program]) -> None:
        self.programs = list(programs)
        self.stopping = False

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        if not self.stopping:
            log(f"{signal.Signals(signum).name}: stopping everything")
        self.stopping = True

    def install_signal_handlers(self) -> None:
        signal.signal(signal.SIGINT, self._on_signal)
        signal.signal(signal.SIGTERM, self._on_signal)

    def start(
        self, program: Program, *, ready: Callable[[], bool] | None = None, timeout: float = 60.0
    ) -> bool:
        """Start ``program``; with ``ready``, wait until it says so. False if it exited or timed out."""
        if program not in self.programs:
            self.programs.append(program)
        program.start()
        if ready is None:
            return True
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not self.stopping:
            if not program.running:
                return False
            if ready():
                return True
            time.sleep(POLL_SECONDS)
        return False

    def run(self) -> int:
        """Watch the programs until asked to stop; then stop them all. Returns the exit status (0)."""
        while not self.stopping:
            now = time.monotonic()
            for program in self.programs:
                if program.proc is None or program.running or program.finished:
                    continue
                if not program.restart:
                    program.finished = True
                    status = program.proc.returncode
                    log(
                        f"{program.name} finished"
                        if status == 0
                        else f"{program.name} failed with status {status}"
                    )
                    self._reap_group(program)
                    continue
                if program.restart_at is None:
                    if now - program.started_at >= HEALTHY_AFTER:
                        program.backoff = BACKOFF_FIRST
                    log(
                        f"{program.name} (pid {program.proc.pid}) exited with status {program.proc.returncode}; "
                        f"restarting it in {program.backoff:g} s"
                    )
                    self._reap_group(program)
                    program.restart_at = now + program.backoff
                    program.backoff = min(program.backoff * 2, BACKOFF_MAX)
                elif now >= program.restart_at:
                    program.restarts += 1
                    program.start()
            time.sleep(POLL_SECONDS)
        self.stop()
        return 0

    def _reap_group(self, program: Program) -> None:
        """A main process gone may leave children in its group (a worker's pool): end them."""
        program.signal(signal.SIGKILL, group=True)

    def stop(self) -> None:
        """SIGTERM to every program (in reverse start order), then SIGKILL to what is left of each group."""
        self.stopping = True
        live = [p for p in reversed(self.programs) if p.proc is not None]
        for program in live:
            if program.running:
                log(f"stopping {program.name} (pid {program.proc.pid})")  # type: ignore[union-attr]
                program.signal(signal.SIGTERM, group=program.term_group)
        deadline = time.monotonic() + max((p.stop_timeout for p in live), default=0.0)
        for program in live:
            assert program.proc is not None
            remaining = max(0.0, min(deadline, time.monotonic() + program.stop_timeout) - time.monotonic())
            try:
                program.proc.wait(timeout=remaining)
            except subprocess.TimeoutExpired:
                log(f"{program.name} did not stop within {program.stop_timeout:g} s: killing it")
            program.signal(signal.SIGKILL, group=True)  # whatever is left in its group
            try:
                program.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                log(f"{program.name} (pid {program.proc.pid}) would not die")
        log("stopped")
