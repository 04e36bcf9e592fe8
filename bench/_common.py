"""What the benches share: a throwaway PostgreSQL database, a run of the bench script itself in a
child process (Django set up there, on the bench database) read back as JSON lines, and the service's
processes (gunicorn, Celery workers) started in their own process groups with their output kept."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import IO, Any

PROJECT_DIR = Path(__file__).resolve().parent.parent


def recreate_database(postgres_url: str, name: str) -> None:
    """Drop the database ``name`` (closing its connections) and create it empty."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(f"{postgres_url}/postgres", autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def drop_database(postgres_url: str, name: str) -> None:
    """Drop the database ``name``, closing its connections."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(f"{postgres_url}/postgres", autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def run_child(
    script: str, mode: str, env: dict[str, str], *args: str, stdin: str = ""
) -> list[dict[str, Any]]:
    """Run the bench ``script`` (its ``__file__``) as ``--child mode args`` in ``env``; its JSON lines."""
    out = subprocess.run(
        [sys.executable, str(Path(script).resolve()), "--child", mode, *args],
        cwd=PROJECT_DIR,
        env=env,
        input=stdin,
        check=True,
        capture_output=True,
        text=True,
    )
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


class Child:
    """A process of the service started in its own process group (so that stopping it stops whatever it
    forked, and nothing else), its output kept in a temporary file for the bench to read back."""

    def __init__(
        self, command: list[str], env: dict[str, str], *, log_prefix: str, grace: float = 10.0
    ) -> None:
        self.grace = grace
        self.log: IO[bytes] = tempfile.NamedTemporaryFile(prefix=log_prefix, suffix=".log")  # noqa: SIM115
        self.proc = subprocess.Popen(
            command,
            cwd=PROJECT_DIR,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def text(self) -> str:
        """Everything the process has written so far."""
        self.log.flush()
        return Path(self.log.name).read_text(errors="replace")

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(self.text().splitlines()[-lines:])

    def stop(self) -> None:
        """SIGTERM (gunicorn's arbiter and Celery's warm shutdown finish what they hold), then SIGKILL to
        the group once ``grace`` seconds have passed."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=self.grace)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)  # the group this bench started, by its id
                self.proc.wait(timeout=5)
        self.log.close()
