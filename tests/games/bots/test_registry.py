import ast
import random
from pathlib import Path

import pytest

import games.bots
from games.bots import BOT_LEVELS, BOTS, Bot, UnknownBot, get_bot, register_bot
from games.bots.arena import play_game
from games.engine import Rules, SeatView, State

BOTS_DIR = Path(games.bots.__file__).resolve().parent


def test_levels_run_from_random_up_and_are_all_registered() -> None:
    assert BOT_LEVELS[0] == "random" and BOT_LEVELS.index("rule") < BOT_LEVELS.index("search")
    assert all(name in BOTS for name in BOT_LEVELS)
    assert get_bot("rule") is BOTS["rule"]


def test_an_unknown_bot_name_is_refused_with_the_known_names() -> None:
    # when: a name nobody registered is asked for
    with pytest.raises(KeyError) as caught:
        get_bot("grandmaster")

    # then: the error is a KeyError and a ValueError, and its message lists the bots there are
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, UnknownBot)
    message = str(caught.value)
    assert "grandmaster" in message
    assert all(name in message for name in BOT_LEVELS)


def test_a_new_bot_can_join_the_registry_but_not_take_a_name(monkeypatch: pytest.MonkeyPatch) -> None:
    # given: a copy of the registry, so the test leaves the real one alone
    monkeypatch.setattr(games.bots, "BOTS", dict(BOTS))

    def first_legal(view: SeatView, legal: tuple[str, ...], rng: random.Random) -> str:
        return legal[0]

    # when: a bot registers under a new name
    register_bot("first", first_legal)

    # then: it is found by name; a taken name needs replace=True
    assert games.bots.get_bot("first") is first_legal
    with pytest.raises(ValueError, match="registered already"):
        register_bot("rule", first_legal)
    register_bot("rule", first_legal, replace=True)
    assert games.bots.get_bot("rule") is first_legal
    assert BOTS["rule"] is not first_legal


#: Every module a bot decides with (the arena, which plays whole games for the bench and tests, excepted).
BOT_MODULES = sorted(
    str(path.relative_to(BOTS_DIR))
    for path in BOTS_DIR.rglob("*.py")
    if path.name not in ("arena.py", "__init__.py")
)


def test_the_bot_modules_are_found() -> None:
    assert {"random.py", "rule/tute.py", "solver.py", "search/bot.py", "search/policy.py"} <= set(BOT_MODULES)


@pytest.mark.parametrize("module", BOT_MODULES)
def test_a_bot_module_reads_views_cards_and_the_engines_rules_only(module: str) -> None:
    # given: the imports of a bot's module
    tree = ast.parse((BOTS_DIR / module).read_text(encoding="utf-8"))
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)

    # then: no game state can reach it: the seat view, card facts, the rules' own code (the trick
    # duties, a hand's phases, the table that plays sampled deals) and the deal sampler, which reads
    # nothing but the view
    engine = {name for name in imported if name.startswith("games.")}
    allowed_modules = (
        "games.engine.cards.",
        "games.engine.sampling.",
        "games.engine.table.",
        "games.engine.tricks.",
        "games.engine.hands.",
        "games.engine.actions.",
    )
    assert engine <= {"games.engine.SeatView", "games.engine.Rules"} | {
        n for n in engine if n.startswith(allowed_modules)
    }
    assert "State" not in {name.rsplit(".", 1)[-1] for name in imported}


def test_bots_are_called_with_a_seat_view_and_nothing_else() -> None:
    # given: spies around each bot that record what they are handed
    seen: list[tuple[type, type, type]] = []

    def spy(name: str) -> Bot:
        bot = get_bot(name)

        def wrapped(view: SeatView, legal: tuple[str, ...], rng: random.Random) -> str:
            seen.append((type(view), type(legal), type(rng)))
            assert view.seat is not None and view.to_act == view.seat
            assert all(isinstance(code, str) for code in legal)
            return bot(view, legal, rng)

        return wrapped

    # when: whole games are played through the arena
    for game in ("tute2", "tute4", "pocha"):
        rules = Rules.build(game, options={"pocha_sequence": [3, 5]} if game == "pocha" else None)
        bots = [spy("rule" if seat % 2 == 0 else "random") for seat in range(rules.players)]
        state = play_game(rules, bots, seed=f"spy:{game}", dealer=1, rng_seed=7)
        assert isinstance(state, State) and state.is_terminal()

    # then: every call got exactly a SeatView, a tuple of codes and a seeded Random
    assert seen
    assert set(seen) == {(SeatView, tuple, random.Random)}
