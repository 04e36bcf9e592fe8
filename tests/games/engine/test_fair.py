"""docs/RULES.md section 11: the commitment, client seeds and the deal seed, checked against the spec's
words (``spec_seed`` is written from them alone) and with Hypothesis."""

from __future__ import annotations

import hashlib
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import CODE_OF, Rules, State
from games.engine.deal import seeded_decks
from games.engine.fair import client_seed_problem, commitment, deal_seed, fair_fields
from tests.games.engine.test_seeded_deck import reference_deck

server_seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)
client_seeds = st.text(alphabet=[chr(c) for c in range(0x20, 0x7F) if chr(c) != ":"], min_size=1, max_size=64)
maybe_client_seeds = st.one_of(st.just(""), client_seeds)


def spec_seed(server_seed: str, seeds: list[str]) -> str:
    """'seed = lowercase hex SHA-256 of the UTF-8 text "{server_seed}:{client_seed of seat 0}:..."'."""
    text = server_seed + "".join(":" + s for s in seeds)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_a_known_vector() -> None:
    # for anyone re-implementing section 11: a fixed server seed, two seats, one without a client seed
    server_seed = "00" * 31 + "01"
    assert commitment(server_seed) == hashlib.sha256(server_seed.encode()).hexdigest()
    assert (
        deal_seed(server_seed, ["alice", ""]) == hashlib.sha256(f"{server_seed}:alice:".encode()).hexdigest()
    )
    assert deal_seed(server_seed, ["", ""]) != deal_seed(server_seed, [""])  # every seat counts


@given(server_seeds, st.lists(maybe_client_seeds, min_size=2, max_size=6))
def test_the_deal_seed_is_the_spec_hash_of_every_seat_in_order(server_seed: str, seeds: list[str]) -> None:
    seed = deal_seed(server_seed, seeds)
    assert seed == spec_seed(server_seed, seeds)
    assert len(seed) == 64 and seed == seed.lower()
    fields = fair_fields(server_seed, seeds)
    assert fields == {
        "seed": seed,
        "server_seed": server_seed,
        "seed_sha256": hashlib.sha256(server_seed.encode()).hexdigest(),
        "client_seeds": seeds,
    }


@given(server_seeds, st.lists(maybe_client_seeds, min_size=2, max_size=2))
def test_the_deal_from_a_fair_seed_is_the_section_7_shuffle(server_seed: str, seeds: list[str]) -> None:
    seed = spec_seed(server_seed, seeds)
    rules = Rules.build("tute2")
    assert [CODE_OF[c] for c in seeded_decks(rules, seed)[0]] == reference_deck(seed, 0)
    state = State.new(rules, dealer=0, seed=deal_seed(server_seed, seeds))
    assert [CODE_OF[c] for c in state.table.decks[0]] == reference_deck(seed, 0)


@given(client_seeds)
def test_every_printable_ascii_text_without_a_colon_is_a_client_seed(value: str) -> None:
    assert client_seed_problem(value) is None


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("", "1 to 64"),
        ("x" * 65, "1 to 64"),
        ("a:b", ":"),
        ("tab\there", "printable"),
        ("ñandú", "printable"),
        ("line\n", "printable"),
        (7, "text"),
        (None, "text"),
    ],
)
def test_what_is_not_a_client_seed(value: object, words: str) -> None:
    problem = client_seed_problem(value)
    assert problem is not None and words in problem


@given(st.text(min_size=1, max_size=80))
def test_the_check_agrees_with_the_spec(value: str) -> None:
    printable = set(string.printable) - set(string.whitespace) | {" "}
    spec_ok = 1 <= len(value) <= 64 and all(ch in printable for ch in value) and ":" not in value
    assert (client_seed_problem(value) is None) == spec_ok
