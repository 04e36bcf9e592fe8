#!/usr/bin/env bash
# Run Tute Arena on one machine: prepare the database and static files, then start each process of the
# service and stop them all when any one exits or on Ctrl-C. `make run` calls this with DJANGO_DEBUG=1.
#
# To add a process (the Celery worker, say), add one `start NAME COMMAND...` line below.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-.venv/bin/python}
HOST=${TUTE_HOST:-127.0.0.1}
PORT=${TUTE_PORT:-8000}

"$PY" manage.py migrate --noinput
"$PY" manage.py demo_data
"$PY" manage.py collectstatic --noinput --verbosity 0

pids=()
start() { # NAME COMMAND...: run COMMAND in the background, in its own process group
    local name=$1
    shift
    echo "run_local: starting $name: $*"
    "$@" &
    pids+=("$!")
}
stop() {
    trap - EXIT INT TERM
    local pid
    for pid in "${pids[@]}"; do
        # The whole group, so that children (the dev server's autoreloader child) go too.
        kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    done
    wait 2>/dev/null || true
}
trap stop EXIT
trap 'stop; exit 130' INT TERM
set -m # job control: each background process gets its own process group

start web "$PY" manage.py runserver "$HOST:$PORT"
# House bots play in the worker, after the person's request has returned; beat runs the turn sweeper.
# With the filesystem broker (the default) both need no server; -B embeds beat in the one worker.
start worker "$(dirname "$PY")/celery" -A tute_site worker -B --loglevel=INFO --concurrency=2

echo "run_local: http://$HOST:$PORT/ (admin: /admin/, user demo, password demo); Ctrl-C stops everything"
wait -n || true # as soon as one process exits, stop the others
