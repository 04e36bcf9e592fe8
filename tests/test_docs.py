"""The documents agree with the code: README's configuration table names every environment variable the
settings (and ``make run``) read, and README's production commands are docs/DEPLOY.md's."""

from __future__ import annotations

import re
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[1]
READ = re.compile(
    r"""(?:os\.environ\.get|os\.environ\[|env_int|env_bool|env_list)\(?\s*["']([A-Z][A-Z0-9_]+)["']"""
)


def variables_read(path: Path) -> set[str]:
    return set(READ.findall(path.read_text(encoding="utf-8")))


def readme_table_variables() -> set[str]:
    readme = (PROJECT_DIR / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return {name for row in rows for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", row.split(" | ")[0])}


def test_the_readme_table_lists_every_variable_the_settings_read() -> None:
    read = variables_read(PROJECT_DIR / "tute_site" / "settings.py") | {"DATABASE_URL"}  # dj-database-url
    read |= variables_read(PROJECT_DIR / "tute_site" / "run_local.py")
    assert len(read) > 20
    assert sorted(read - readme_table_variables()) == []


def commands(text: str) -> list[str]:
    """The gunicorn and celery command lines of a document, continuation lines joined."""
    joined = re.sub(r"\\\n\s*", "", text)
    return [
        " ".join(line.split())
        for line in joined.splitlines()
        if line.strip().startswith(("gunicorn ", "celery -A"))
    ]


def test_the_readmes_production_commands_are_the_deploy_guides() -> None:
    readme = (PROJECT_DIR / "README.md").read_text(encoding="utf-8")
    production = readme.split("## Production notes", 1)[1].split("\n## ", 1)[0]
    deploy = commands((PROJECT_DIR / "docs" / "DEPLOY.md").read_text(encoding="utf-8"))
    ours = commands(production)
    assert len(ours) == 3
    assert all(command in deploy for command in ours), (ours, deploy)
