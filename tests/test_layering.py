"""The layers stay apart: the engine and the bots know nothing of Django, and games knows nothing of the
apps that listen to it (ratings, tournaments)."""

import ast
import os
import subprocess
import sys
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[1]


def test_engine_and_bots_import_no_django() -> None:
    # when: a fresh interpreter imports the engine, its CLI module and the bots
    code = (
        "import sys, games.engine, games.engine.__main__; import games.bots; "
        "leaked = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')); "
        "assert not leaked, leaked"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT_DIR, env=env, capture_output=True, text=True, timeout=120
    )

    # then: no django module was loaded
    assert result.returncode == 0, result.stderr


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_games_never_imports_ratings_or_tournaments() -> None:
    # given: every Python file of the games app
    sources = sorted((PROJECT_DIR / "games").rglob("*.py"))
    assert sources

    # then: none imports the apps that listen to games' signals
    offenders = {
        str(path.relative_to(PROJECT_DIR)): sorted(
            m for m in imported_modules(path) if m.split(".")[0] in {"ratings", "tournaments"}
        )
        for path in sources
    }
    assert {path: mods for path, mods in offenders.items() if mods} == {}
