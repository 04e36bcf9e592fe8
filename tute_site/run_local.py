"""`make run`: Tute Arena on one machine, supervised (issue 14). ``python -m tute_site.run_local``.

In order: refuse a second run on the same data (a lock file), check that the port is free, prepare the
database (migrate, static files), start the web server and wait until it answers, then the Celery
worker and beat, and last the demo content, loaded behind the running site (issue 30: building it first
kept the first page away for minutes on a busy machine); it logs its progress and, on a rerun, sees its
content there and finishes in a second. tute_site.supervisor keeps them up: a process that dies is
restarted after a back-off with a line in the log, and one Ctrl-C stops all of them within seconds.
Any failure before the worker starts exits non-zero with a message saying what failed.

Environment: TUTE_HOST (127.0.0.1), TUTE_PORT (8000), TUTE_DATA_DIR (the checkout), TUTE_WORKER_CONCURRENCY
(2), TUTE_DEMO_DATA (1; 0 skips the demo content), and the settings' own variables (README).
"""

from __future__ import annotations

import errno
import fcntl
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import IO

from tute_site.supervisor import Program, Supervisor, log

PROJECT_DIR = Path(__file__).resolve().parents[1]
EXIT_IN_USE = 2
EXIT_SETUP_FAILED = 3


class StartError(Exception):
    """Something `make run` needs is missing or taken; the message says what and what to do."""


def data_dir() -> Path:
    return Path(os.environ.get("TUTE_DATA_DIR") or PROJECT_DIR)


def take_lock(path: Path) -> IO[str]:
    """An exclusive lock on ``path`` held while this process lives: one `make run` per data folder, so
    that two never share a queue (or a database)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = path.open("a+")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        handle.seek(0)
        holder = handle.read().strip() or "another process"
        handle.close()
        raise StartError(
            f"another `make run` (pid {holder}) is already running on {path.parent.parent}: stop it first "
            "(Ctrl-C in its terminal), or give this one its own TUTE_DATA_DIR"
        ) from exc
    handle.seek(0)
    handle.truncate()
    handle.write(str(os.getpid()))
    handle.flush()
    return handle


def check_port(host: str, port: int) -> None:
    """Fail early when something listens on the port. SO_REUSEADDR, as the web server itself binds: a
    port whose last connections linger in TIME_WAIT after a Ctrl-C is free, one with a listener is not."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise StartError(
                    f"port {port} on {host} is already in use: stop what uses it, or choose another port "
                    f"with TUTE_PORT=8001 make run"
                ) from exc
            raise StartError(f"cannot listen on {host}:{port}: {exc}") from exc


def answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def manage(python: str, *args: str) -> None:
    log(f"manage.py {' '.join(args)}")
    result = subprocess.run([python, str(PROJECT_DIR / "manage.py"), *args], cwd=PROJECT_DIR)
    if result.returncode != 0:
        raise StartError(f"`manage.py {' '.join(args)}` failed with status {result.returncode} (see above)")


def programs(python: str, host: str, port: int) -> tuple[Program, list[Program]]:
    celery = [python, "-m", "celery", "-A", "tute_site"]
    web = Program("web", [python, str(PROJECT_DIR / "manage.py"), "runserver", f"{host}:{port}"])
    # House bots play in the worker; beat runs the turn and tournament sweepers. The worker gets SIGTERM
    # alone (its pool is its to stop); no gossip, mingle or heartbeat: there is one worker.
    concurrency = os.environ.get("TUTE_WORKER_CONCURRENCY", "2")
    worker = Program(
        "worker",
        [
            *celery,
            "worker",
            "--loglevel=INFO",
            f"--concurrency={concurrency}",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        term_group=False,
        # Ctrl-C: running tasks get 3 s, then go back to the broker (Celery's soft shutdown).
        env={**os.environ, "TUTE_WORKER_SOFT_SHUTDOWN_SECONDS": "3"},
    )
    schedule = data_dir() / "var" / "celerybeat-schedule"
    beat = Program("beat", [*celery, "beat", "--loglevel=INFO", "-s", str(schedule)], term_group=False)
    return web, [worker, beat]


def demo_program(python: str) -> Program:
    """`manage.py demo_data --progress`, run once while the site is up: the pages fill in as it plays."""
    return Program(
        "demo content", [python, str(PROJECT_DIR / "manage.py"), "demo_data", "--progress"], restart=False
    )


def main(argv: list[str] | None = None) -> int:
    os.chdir(PROJECT_DIR)
    python = sys.executable
    host = os.environ.get("TUTE_HOST", "127.0.0.1")
    port = int(os.environ.get("TUTE_PORT", "8000"))
    supervisor = Supervisor([])
    supervisor.install_signal_handlers()
    try:
        lock = take_lock(data_dir() / "var" / "run.lock")
        check_port(host, port)
        manage(python, "migrate", "--noinput")
        manage(python, "collectstatic", "--noinput", "--verbosity", "0")
        check_port(host, port)  # again: it may have been taken while the database was prepared
        web, others = programs(python, host, port)
        if not supervisor.start(web, ready=lambda: answers(host, port)):
            raise StartError(
                f"the web server did not start on {host}:{port} (status {web.proc.returncode if web.proc else '?'}; "
                "see its output above)"
            )
        if supervisor.stopping:
            supervisor.stop()
            return 130
        for program in others:
            supervisor.start(program)
        if os.environ.get("TUTE_DEMO_DATA", "1") != "0":
            supervisor.start(demo_program(python))
    except StartError as exc:
        log(f"error: {exc}")
        supervisor.stop()
        return EXIT_IN_USE if "already" in str(exc) else EXIT_SETUP_FAILED
    log(f"http://{host}:{port}/ (admin: /admin/, user demo, password demo); Ctrl-C stops everything")
    try:
        return supervisor.run()
    finally:
        lock.close()


if __name__ == "__main__":
    raise SystemExit(main())
