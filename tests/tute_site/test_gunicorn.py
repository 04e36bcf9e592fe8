"""The web server the deployment runs (gunicorn's gthread worker, docs/DEPLOY.md) keeps answering while
clients are slow to close their connections.

gunicorn 26 and later close each finished connection on the worker's event loop with a lingering close
(up to 2 s waiting for the client's FIN): a few clients slow to close stalled a whole process, and the
ladder bench's bots lost their clocks at each stream turnover (docs/PERFORMANCE.md). pyproject.toml pins
gunicorn below 26; this test fails on a version that lingers.
"""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

APP = """
def app(environ, start_response):
    body = b"ok"
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def gthread_server(tmp_path: Path) -> Iterator[int]:
    """gunicorn, one gthread worker with 4 threads, serving a minimal WSGI app; its port."""
    (tmp_path / "tinyapp.py").write_text(APP)
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "gunicorn", "tinyapp:app", "--bind", f"127.0.0.1:{port}"]
    command += ["--worker-class", "gthread", "--workers", "1", "--threads", "4", "--log-level", "warning"]
    proc = subprocess.Popen(command, cwd=tmp_path, env=env)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                get(port, timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def get(port: int, timeout: float) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", "/", headers={"Connection": "close"})
        status: int = conn.getresponse().status
        return status
    finally:
        conn.close()


def test_clients_slow_to_close_do_not_stall_the_worker(gthread_server: int) -> None:
    # given: six clients whose requests were answered, and who keep their connections open
    lingering = []
    for _ in range(6):
        sock = socket.create_connection(("127.0.0.1", gthread_server))
        sock.sendall(b"GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        lingering.append(sock)
    try:
        time.sleep(0.5)  # their answers are written

        # when: another client asks
        started = time.monotonic()
        status = get(gthread_server, timeout=30)
        took = time.monotonic() - started
    finally:
        for sock in lingering:
            sock.close()

    # then: it is answered at once, not after the worker waited for the others to close (2 s each)
    assert status == 200
    assert took < 4
