"""The settings load from the environment; each case runs in a fresh interpreter with its own env."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT_DIR = Path(__file__).resolve().parents[2]

# Variables the settings read; each test starts from an environment without any of them.
SETTINGS_VARS = ("DJANGO_", "DATABASE_URL", "CELERY_", "TUTE_")


def run_python(
    code: str, env: dict[str, str], tmp_path: Path, *args: str
) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(SETTINGS_VARS)}
    # Keep the embedded defaults' files (SQLite, broker folders) out of the work tree.
    clean.update({"DJANGO_SETTINGS_MODULE": "tute_site.settings", "TUTE_DATA_DIR": str(tmp_path), **env})
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=PROJECT_DIR,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


LOAD_SETTINGS = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"


def test_secret_key_is_required_when_debug_is_off(tmp_path: Path) -> None:
    # when: the settings load with DEBUG off and no secret key
    result = run_python(LOAD_SETTINGS, {}, tmp_path)

    # then: they refuse, and say what to set
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DJANGO_SECRET_KEY is required" in result.stderr


@pytest.mark.parametrize("value", ["1", "true", "True"])
def test_debug_runs_without_a_secret_key(tmp_path: Path, value: str) -> None:
    result = run_python(LOAD_SETTINGS, {"DJANGO_DEBUG": value}, tmp_path)

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"


def test_debug_is_off_for_anything_else(tmp_path: Path) -> None:
    result = run_python(
        LOAD_SETTINGS, {"DJANGO_DEBUG": "yes please", "DJANGO_SECRET_KEY": "x" * 50}, tmp_path
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_embedded_defaults_need_no_server(tmp_path: Path) -> None:
    # when: the settings load with nothing configured but DEBUG
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.DATABASES['default']['ENGINE']); print(s.DATABASES['default']['NAME']); "
        "print(s.CELERY_BROKER_URL); print(s.CELERY_BROKER_TRANSPORT)"
    )
    result = run_python(code, {"DJANGO_DEBUG": "1"}, tmp_path)

    # then: SQLite in the data dir, and the broker on a SQLite file of its own there
    assert result.returncode == 0, result.stderr
    engine, name, broker, transport = result.stdout.split()
    assert engine == "django.db.backends.sqlite3"
    assert Path(name) == tmp_path / "db.sqlite3"
    assert broker == f"sqlite:///{tmp_path / 'var' / 'celery' / 'broker.sqlite3'}"
    assert transport == "tute_site.broker:Transport"
    assert (tmp_path / "var" / "celery").is_dir()


def test_check_deploy_is_clean_with_production_settings(tmp_path: Path) -> None:
    # given: what a production deployment sets
    env = {
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "example.com",
        "DATABASE_URL": "postgres://tute:secret@db.example.com:5432/tute",
        "CELERY_BROKER_URL": "redis://redis.example.com:6379/0",
    }

    # when: Django's deployment checklist runs (no connection is made)
    code = "import sys; from django.core.management import execute_from_command_line as m; m(sys.argv)"
    result = run_python(code, env, tmp_path, "check", "--deploy", "--fail-level", "WARNING")

    # then: no issue at all
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_security_is_on_and_overridable(tmp_path: Path) -> None:
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS > 0, s.SESSION_COOKIE_SECURE, "
        "s.CSRF_COOKIE_SECURE, s.SECURE_PROXY_SSL_HEADER)"
    )
    base = {"DJANGO_SECRET_KEY": "k" * 50}

    on = run_python(code, base, tmp_path)
    off = run_python(
        code,
        {**base, "DJANGO_SECURE_SSL_REDIRECT": "0", "DJANGO_SECURE_PROXY_SSL_HEADER": ""},
        tmp_path,
    )

    assert on.returncode == 0, on.stderr
    assert on.stdout.strip() == "True True True True ('HTTP_X_FORWARDED_PROTO', 'https')"
    assert off.returncode == 0, off.stderr
    assert off.stdout.strip() == "False True True True None"


@pytest.mark.parametrize(
    ("flag", "expected"),
    [(None, "{'server_side_binding': True, 'prepare_threshold': 5}"), ("0", "{}")],
)
def test_postgresql_prepares_repeated_statements_unless_told_not_to(
    tmp_path: Path, flag: str | None, expected: str
) -> None:
    # given: a PostgreSQL DATABASE_URL, with or without DJANGO_DB_PREPARED_STATEMENTS=0 (for a pooler)
    env = {"DJANGO_DEBUG": "1", "DATABASE_URL": "postgres://u@db.example:5432/tute"}
    if flag is not None:
        env["DJANGO_DB_PREPARED_STATEMENTS"] = flag
    code = "import django; django.setup(); from django.conf import settings as s; print(s.DATABASES['default'].get('OPTIONS', {}))"

    result = run_python(code, env, tmp_path)

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == expected
