"""``python -m games.engine verify``: every check of docs/RULES.md section 11 printed, non-zero on a
mismatch, records from standard input or fetched from a match's address."""

from __future__ import annotations

import hashlib
import io
import json
import random
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Rules, State, export_record
from games.engine.cli import main, record_url
from games.engine.fair import fair_fields
from tests.games.engine.test_seeded_deck import reference_deck


def fair_record(
    game: str = "tute2",
    *,
    players: int | None = None,
    server_seed: str = "ab" * 32,
    client_seeds: list[str] | None = None,
    play: str = "x",
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A finished game dealt as section 11 says, played by random moves; and its result."""
    rules = Rules.build(game, players)
    seeds = client_seeds if client_seeds is not None else [""] * rules.players
    fields = fair_fields(server_seed, seeds)
    state = State.new(rules, dealer=1, seed=fields["seed"])
    rng = random.Random(play)
    while not state.is_terminal():
        state = state.apply(rng.choice(state.legal_actions()))
    record = export_record(state, seed=fields["seed"])
    actions = record.pop("actions")
    record.update(fields)
    record["actions"] = actions
    result = state.result()
    assert result is not None
    return record, result.to_dict()


def verify(stdin: str, *argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(["verify", *argv], out=out, stdin=io.StringIO(stdin))
    return code, out.getvalue()


def test_a_fair_record_verifies_and_every_check_is_printed() -> None:
    record, _ = fair_record(client_seeds=["alice", ""])
    code, text = verify(json.dumps(record) + "\n")
    assert code == 0, text
    lines = text.splitlines()
    assert lines[0] == "record 1: verified"
    checks = [line.split(":")[0].split()[-1] for line in lines[1:-1]]
    assert checks == ["record", "commitment", "client_seeds", "seed", "deck", "dealt", "actions"]
    # exactly the values compared: the commitment and the seed's hashed text
    assert (
        f"SHA-256(server_seed {record['server_seed']}) = {record['seed_sha256']} equals seed_sha256" in text
    )
    assert f"SHA-256('{record['server_seed']}:alice:') = {record['seed']} equals seed" in text
    assert " ".join(reference_deck(record["seed"], 0)) in text  # every card of the deck
    assert lines[-1] == "1 record(s) checked, 1 verified, 0 failed"


def tampered(change: str) -> dict[str, Any]:
    record, _ = fair_record(client_seeds=["alice", "bob"])
    if change == "commitment":
        record["seed_sha256"] = hashlib.sha256(b"another").hexdigest()
    elif change == "server_seed":
        record["server_seed"] = "cd" * 32
    elif change == "client_seeds":
        record["client_seeds"] = ["alice", "eve"]
    elif change == "seed":
        record["seed"] = "0" * 64
    elif change == "missing":
        del record["server_seed"]
    elif change == "bad client seed":
        record["client_seeds"] = ["a:b", "bob"]
    return record


@pytest.mark.parametrize(
    ("change", "failed"),
    [
        ("commitment", "commitment"),
        ("server_seed", "commitment"),
        ("client_seeds", "seed"),
        ("seed", "seed"),
        ("missing", "commitment"),
        ("bad client seed", "client_seeds"),
    ],
)
def test_a_mismatch_fails_and_says_which_check(change: str, failed: str) -> None:
    code, text = verify(json.dumps(tampered(change)) + "\n")
    assert code == 1
    assert f"FAIL {failed}:" in text
    assert "record 1: FAILED" in text


def test_an_action_not_legal_with_the_cards_dealt_fails() -> None:
    # given: a record whose server seed was swapped for another one with its own (valid) commitment
    record, _ = fair_record()
    other = fair_fields("cd" * 32, record["client_seeds"])
    record.update(other)
    code, text = verify(json.dumps(record))
    assert code == 1
    assert "ok   commitment" in text and "ok   seed" in text
    assert "FAIL actions: action" in text and "not legal with the cards dealt" in text


def test_a_result_that_the_cards_do_not_give_fails() -> None:
    record, result = fair_record()
    entry = {"number": 0, "record": record, "result": {**result, "scores": result["scores"][::-1]}}
    code, text = verify(json.dumps({"match": 9, "games": [entry]}))
    assert code == 1
    assert "match 9 game 0: FAILED" in text and "FAIL result:" in text


def test_the_record_api_answer_and_json_output() -> None:
    games = []
    for number in range(3):
        record, result = fair_record(server_seed=f"{number:02x}" * 32, play=str(number))
        games.append({"number": number, "record": record, "result": result})
    code, text = verify(json.dumps({"match": 5, "games": games}) + "\n", "--json")
    assert code == 0, text
    lines = [json.loads(line) for line in text.splitlines()]
    assert [line["record"] for line in lines[:3]] == ["match 5 game 0", "match 5 game 1", "match 5 game 2"]
    assert all(line["ok"] for line in lines[:3])
    assert {c["check"] for c in lines[0]["checks"]} >= {"commitment", "seed", "deck", "actions", "result"}
    assert lines[3] == {"summary": {"records": 3, "verified": 3, "failed": 0}}


def test_nothing_to_check_or_unreadable_input_fails() -> None:
    assert verify("")[0] == 1
    code, text = verify("{not json\n")
    assert code == 1 and "FAIL json" in text
    code, text = verify(json.dumps({"game": "tute2", "decks": [], "actions": []}) + "\n")
    assert code == 1 and "FAIL record" in text


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from([("tute2", None), ("tute4", None), ("pocha", 3), ("pocha", 5)]),
    st.binary(min_size=32, max_size=32),
    st.lists(st.text(alphabet="abcXYZ019 -_", min_size=0, max_size=8), min_size=6, max_size=6),
)
def test_any_fair_game_verifies(game: tuple[str, int | None], raw: bytes, seeds: list[str]) -> None:
    name, players = game
    n = Rules.build(name, players).players
    record, result = fair_record(name, players=players, server_seed=raw.hex(), client_seeds=seeds[:n])
    code, text = verify(json.dumps({"number": 0, "record": record, "result": result}))
    assert code == 0, text


def test_record_url_accepts_a_match_page_or_its_api_addresses() -> None:
    want = "http://h:8200/api/v1/matches/12/record/"
    assert record_url("http://h:8200/matches/12/") == want
    assert record_url("http://h:8200/es/matches/12/") == want
    assert record_url("http://h:8200/api/v1/matches/12/") == want
    assert record_url(want) == want
    for bad in ("ftp://h/matches/1/", "http://h/players/x/", "matches/12"):
        with pytest.raises(ValueError):
            record_url(bad)


@pytest.fixture
def served() -> Iterator[dict[str, Any]]:
    """A local HTTP server answering /api/v1/matches/<id>/record/ with ``served["body"]``."""
    state: dict[str, Any] = {"body": None, "paths": []}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            state["paths"].append(self.path)
            body = json.dumps(state["body"]).encode()
            self.send_response(200 if state["body"] is not None else 404)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state["url"] = f"http://127.0.0.1:{server.server_address[1]}"
    yield state
    server.shutdown()
    server.server_close()


def test_match_fetches_the_record_and_verifies_it(served: dict[str, Any]) -> None:
    record, result = fair_record()
    served["body"] = {"match": 3, "games": [{"number": 0, "record": record, "result": result}]}
    code, text = verify("", "--match", f"{served['url']}/matches/3/")
    assert code == 0, text
    assert served["paths"] == ["/api/v1/matches/3/record/"]
    assert "match 3 game 0: verified" in text


def test_match_that_cannot_be_fetched_is_exit_2(served: dict[str, Any]) -> None:
    code, _ = verify("", "--match", f"{served['url']}/api/v1/matches/4/record/")
    assert code == 2


def test_the_module_runs_as_a_command() -> None:
    record, _ = fair_record()
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "verify"],
        input=json.dumps(record) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "1 record(s) checked, 1 verified, 0 failed" in done.stdout
