"""The layers stay apart, as docs and the developers' guide say, checked on the source itself:

- the rules engine imports neither Django nor the bots (its command line finds the bots through the
  ``tute_arena.bots`` entry point);
- the bots import only the engine;
- games never imports the apps that listen to it (ratings, tournaments, the ladder) nor the website;
- ratings never imports tournaments (tournaments may read ratings, for seeding; not the other way);
- no app imports another app's ``apis``;
- no package's services import its tasks (tasks import services; services queue tasks by name through
  ``tute_site.celery.queue_on_commit``), and that helper is the only place that sends a task.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[1]
APPS = ("games", "ratings", "tournaments", "ladder", "lobby", "web", "tute_site")


def sources(folder: str) -> list[Path]:
    found = sorted(p for p in (PROJECT_DIR / folder).rglob("*.py") if "migrations" not in p.parts)
    assert found, folder
    return found


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top or inside a function, relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = ".".join(path.relative_to(PROJECT_DIR).with_suffix("").parts[:-1])
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def offenders(folder: str, bad: object) -> dict[str, list[str]]:
    found = {}
    for path in sources(folder):
        mods = sorted(m for m in imported_modules(path) if bad(path, m))  # type: ignore[operator]
        if mods:
            found[str(path.relative_to(PROJECT_DIR))] = mods
    return found


def top(module: str) -> str:
    return module.split(".")[0]


def fresh_import(code: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT_DIR, env=env, capture_output=True, text=True, timeout=120
    )


def test_the_engine_and_its_command_line_load_neither_django_nor_the_bots() -> None:
    result = fresh_import(
        "import sys, games.engine, games.engine.cli, games.engine.__main__; "
        "leaked = sorted(m for m in sys.modules if m.split('.')[0] == 'django' or m.startswith('games.bots')); "
        "assert not leaked, leaked"
    )
    assert result.returncode == 0, result.stderr


def test_the_engine_source_imports_neither_django_nor_the_bots() -> None:
    def bad(path: Path, module: str) -> bool:
        return top(module) in {"django", "rest_framework", "celery"} or module.startswith("games.bots")

    assert offenders("games/engine", bad) == {}


def test_the_engine_command_line_finds_the_bots_through_their_entry_point() -> None:
    from games.bots import get_bot
    from games.engine.cli import installed_bots

    assert installed_bots() is get_bot


def test_the_bots_import_only_the_engine() -> None:
    def bad(path: Path, module: str) -> bool:
        if top(module) != "games" and top(module) in {*APPS, "django", "rest_framework", "celery"}:
            return True
        return top(module) == "games" and not module.startswith(("games.engine", "games.bots"))

    assert offenders("games/bots", bad) == {}
    result = fresh_import(
        "import sys, games.bots, games.bots.rule, games.bots.random; "
        "leaked = sorted(m for m in sys.modules if m.split('.')[0] == 'django'); assert not leaked, leaked"
    )
    assert result.returncode == 0, result.stderr


def test_games_never_imports_ratings_tournaments_or_the_website() -> None:
    assert offenders("games", lambda path, m: top(m) in {"ratings", "tournaments", "lobby", "web"}) == {}


def test_games_never_imports_the_ladder() -> None:
    """The ladder listens to games.signals and registers its policies from LadderConfig.ready()."""
    assert offenders("games", lambda path, m: top(m) in {"ladder", "matchmaking"}) == {}


def test_ratings_never_imports_tournaments() -> None:
    assert offenders("ratings", lambda path, m: top(m) == "tournaments") == {}


def test_no_app_imports_another_apps_apis() -> None:
    for app in APPS:

        def bad(path: Path, module: str, app: str = app) -> bool:
            parts = module.split(".")
            return parts[0] != app and parts[0] in APPS and "apis" in parts[1:]

        assert offenders(app, bad) == {}, app


def test_no_services_module_imports_its_tasks() -> None:
    for app in APPS:
        services = [p for p in sources(app) if "services" in p.relative_to(PROJECT_DIR).parts[1:2]]
        services += [p for p in sources(app) if p.name == "services.py"]
        found = {
            str(p.relative_to(PROJECT_DIR)): sorted(
                m for m in imported_modules(p) if m.split(".")[-1] == "tasks"
            )
            for p in services
        }
        assert {k: v for k, v in found.items() if v} == {}, app


def test_tasks_are_sent_only_by_the_one_queue_on_commit_helper() -> None:
    """No module but tute_site/celery.py sends a task (``delay``, ``apply_async``, ``send_task``...)."""
    sending = {"delay", "apply_async", "send_task", "delay_on_commit", "apply_async_on_commit"}
    found: dict[str, list[int]] = {}
    for app in APPS:
        for path in sources(app):
            if path == PROJECT_DIR / "tute_site" / "celery.py":
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            lines = [
                node.lineno
                for node in ast.walk(tree)
                if isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in sending
            ]
            if lines:
                found[str(path.relative_to(PROJECT_DIR))] = lines
    assert found == {}
