"""``python -m games.engine``: replay and play, as bot authors and organisers use them."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

from games.engine import Rules, State, export_record
from games.engine.cli import main


def finished_record(game: str = "tute2", seed: str = "cli", players: int | None = None) -> dict[str, object]:
    rng = random.Random(seed)
    state = State.new(Rules.build(game, players), dealer=0, seed=seed)
    while not state.is_terminal():
        state = state.apply(rng.choice(state.legal_actions()))
    return export_record(state, seed=seed)


def run(argv: list[str], stdin: str = "") -> tuple[int, list[dict[str, object]]]:
    out = io.StringIO()
    code = main(argv, out=out, stdin=io.StringIO(stdin))
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def test_replay_prints_each_step_with_its_legal_set_and_the_result(tmp_path: Path) -> None:
    # given: a finished Tute 2 record in a file
    record = finished_record()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record, indent=2))
    # when
    code, lines = run(["replay", str(path)])
    # then
    assert code == 0
    [line] = lines
    assert [step["action"] for step in line["steps"]] == record["actions"]
    assert all(step["action"] in step["legal"] for step in line["steps"])
    assert line["steps"][0]["seat"] == 1  # the mano leads: the seat after dealer 0
    assert line["next"] == {"seat": None, "legal": []}
    assert set(line["result"]) >= {"scores", "winners"}
    assert line["result"]["scores"][0] + line["result"]["scores"][1] >= 120


def test_replay_of_an_unfinished_record_gives_the_next_seat_and_its_legal_actions() -> None:
    record = finished_record("tute4")
    record["actions"] = record["actions"][:5]  # type: ignore[index]
    code, [line] = run(["replay", "-"], stdin=json.dumps(record) + "\n")
    assert code == 0
    assert line["result"] is None
    state = State.new(Rules.build("tute4"), dealer=0, seed="cli")
    for action in record["actions"]:  # type: ignore[attr-defined]
        state = state.apply(action)
    assert line["next"] == {"seat": state.current_player(), "legal": list(state.legal_actions())}


def test_pocha_result_lists_every_hand() -> None:
    code, [line] = run(["replay", "-"], stdin=json.dumps(finished_record("pocha", players=3)))
    assert code == 0
    hands = line["result"]["hands"]
    assert len(hands) == len(Rules.build("pocha", 3).hand_sizes())
    assert set(hands[0]) >= {"cards", "dealer", "trump", "bids", "tricks", "scores"}
    assert line["result"]["scores"] == [sum(h["scores"][s] for h in hands) for s in range(3)]


def test_an_illegal_action_ends_its_record_and_the_run_goes_on_to_exit_1() -> None:
    # given: a record whose third action is replaced by a card nobody may play, then a good record
    good = finished_record()
    bad = dict(good)
    bad["actions"] = [*good["actions"][:2], "play:8O", *good["actions"][3:]]  # type: ignore[index]
    stdin = json.dumps(bad) + "\n" + "{not json\n" + json.dumps(good) + "\n"
    # when
    code, lines = run(["replay", "-"], stdin=stdin)
    # then
    assert code == 1
    assert lines[0]["error"]["step"] == 2
    assert lines[0]["error"]["action"] == "play:8O"
    assert "8O" in lines[0]["error"]["reason"]
    assert len(lines[0]["steps"]) == 2
    assert lines[1]["error"]["step"] is None and "not JSON" in lines[1]["error"]["reason"]
    assert lines[2]["result"] is not None


def test_an_invalid_record_gets_an_error_line() -> None:
    code, [line] = run(["replay", "-"], stdin=json.dumps({"game": "tute3", "seed": "x", "actions": []}))
    assert code == 1
    assert "tute3" in line["error"]["reason"]


def test_play_prints_records_that_replay_to_their_results() -> None:
    code, records = run(["play", "--game", "tute4", "--seed", "s", "--games", "3", "--bots", "random"])
    assert code == 0
    assert [r["seed"] for r in records] == ["s-0", "s-1", "s-2"]
    assert [r["dealer"] for r in records] == [0, 1, 2]
    code, lines = run(["replay", "-"], stdin="\n".join(json.dumps(r) for r in records))
    assert code == 0
    assert all(line["result"] for line in lines)


def test_play_is_reproducible_from_its_seed_and_summarises() -> None:
    argv = [
        "play",
        "--game",
        "pocha",
        "--players",
        "3",
        "--seed",
        "x",
        "--games",
        "2",
        "--option",
        'pocha_sequence="up_down"',
    ]
    assert run(argv) == run(argv)
    code, lines = run([*argv, "--summary"])
    assert code == 0
    summary = lines[-1]["summary"]
    assert summary["games"] == 2 and len(summary["wins"]) == 3
    assert sum(summary["wins"]) == 2


def test_play_refuses_bad_options_with_a_clear_message(capsys: object) -> None:
    code, lines = run(["play", "--game", "tute2", "--option", "no_such_flag=true"])
    assert code == 2 and lines == []


def test_the_module_runs_as_a_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "play", "--game", "tute2", "--seed", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    record = json.loads(done.stdout)
    assert record["game"] == "tute2" and record["seed"] == "1"
