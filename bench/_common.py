"""What the benches share: a throwaway PostgreSQL database, and a run of the bench script itself in a
child process (Django set up there, on the bench database) read back as JSON lines."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

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
