"""Checking a finished game's deal from its record alone (docs/RULES.md sections 7, 10 and 11).

``verify_document`` takes what the record API serves (the whole answer, one game's entry, or a bare
record) and returns, for each record, every check made with the values compared, so that a person can
see exactly what was proved: the commitment, the client seeds, the deal seed, every card of every deck,
the actions replayed against those cards, and the result.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import CODE_OF, codes_of
from .deal import seeded_decks
from .fair import SERVER_SEED_RE, client_seed_problem, commitment, deal_seed
from .records import RecordError, load_record
from .table import IllegalAction


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    ok: bool
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return {"check": self.name, "ok": self.ok, "detail": self.detail}


@dataclass(slots=True)
class Verified:
    """The checks made on one record; ``label`` says which record (match and game when known)."""

    label: str
    checks: list[Check] = field(default_factory=list)
    board: tuple[Any, ...] | None = None  # (match, board number) for duplicate plays
    board_deal: tuple[Any, ...] | None = None  # what every play of that board must share

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    def add(self, name: str, ok: bool, detail: str) -> bool:
        self.checks.append(Check(name, ok, detail))
        return ok

    def to_dict(self) -> dict[str, Any]:
        return {"record": self.label, "ok": self.ok, "checks": [c.to_dict() for c in self.checks]}


def entries(document: object) -> Iterator[tuple[str, Mapping[str, Any] | object, Any]]:
    """(label, record, recorded result) for each record in ``document``: the record API's answer
    (``{"match", "games": [...]}``), one of its entries (``{"number", "record", "result"}``), or a record."""
    if isinstance(document, Mapping) and isinstance(document.get("games"), list) and "game" not in document:
        match = document.get("match")
        for index, entry in enumerate(document["games"]):
            number = entry.get("number", index) if isinstance(entry, Mapping) else index
            for label, record, result in entries(entry):
                yield f"match {match} game {number}" if match is not None else label, record, result
        return
    if isinstance(document, Mapping) and isinstance(document.get("record"), Mapping):
        number = document.get("number")
        label = f"game {number}" if number is not None else "record"
        yield label, document["record"], document.get("result")
        return
    yield "record", document, None


def verify_record(label: str, data: object, result: Any = None) -> Verified:
    """Every check of one record: see the module's docstring."""
    out = Verified(label)
    try:
        record = load_record(data)
    except RecordError as exc:
        out.add("record", False, f"not a game record: {exc}")
        return out
    assert isinstance(data, Mapping)
    rules = record.rules
    out.add(
        "record",
        True,
        f"{rules.game}, {rules.players} players, dealer {record.dealer}, {len(record.actions)} actions",
    )
    if record.seed is None:
        out.add("seed", False, 'the record gives "decks", not a "seed": there is no deal to check')
        return out
    seed = record.seed
    server_seed = data.get("server_seed")
    committed = data.get("seed_sha256")
    client_seeds = data.get("client_seeds")
    fair = True
    if not isinstance(server_seed, str) or not isinstance(committed, str):
        fair = out.add(
            "commitment",
            False,
            'the record has no "server_seed" and "seed_sha256" (RULES.md section 11): nothing was committed',
        )
    elif not SERVER_SEED_RE.match(server_seed):
        fair = out.add("commitment", False, "server_seed is not 64 lowercase hexadecimal characters")
    else:
        digest = commitment(server_seed)
        fair = out.add(
            "commitment",
            digest == committed,
            f"SHA-256(server_seed {server_seed}) = {digest}"
            + (" equals seed_sha256" if digest == committed else f" but seed_sha256 is {committed}"),
        )
    if not isinstance(client_seeds, list) or len(client_seeds) != rules.players:
        fair = out.add(
            "client_seeds", False, f'"client_seeds" must list one text per seat ({rules.players} seats)'
        )
    else:
        problems = [
            f"seat {seat}: {problem}"
            for seat, value in enumerate(client_seeds)
            if value != "" and (problem := client_seed_problem(value))
        ]
        fair = (
            out.add(
                "client_seeds",
                not problems,
                "; ".join(problems) if problems else "by seat: " + ", ".join(repr(c) for c in client_seeds),
            )
            and fair
        )
    if fair and isinstance(server_seed, str) and isinstance(client_seeds, list):
        text = ":".join([server_seed, *client_seeds])
        derived = deal_seed(server_seed, client_seeds)
        out.add(
            "seed",
            derived == seed,
            f"SHA-256({text!r}) = {derived}"
            + (" equals seed" if derived == seed else f" but seed is {seed}"),
        )
    decks = seeded_decks(rules, seed)
    for hand, deck in enumerate(decks):
        out.add(
            "deck",
            True,
            f"hand {hand}: Fisher-Yates of section 7 from seed {seed}: " + " ".join(CODE_OF[c] for c in deck),
        )
    state = record.initial_state()
    dealt = "; ".join(
        f"seat {seat}: {' '.join(codes_of(mask))}" for seat, mask in enumerate(state.table.hands) if mask
    )
    out.add(
        "dealt",
        True,
        f"hand 0 as dealt from that deck: {dealt}; trump card {CODE_OF[state.table.trump_card]}",
    )
    for index, action in enumerate(record.actions):
        try:
            state = state.apply(action)
        except IllegalAction as exc:
            out.add(
                "actions", False, f"action {index} ({action}) is not legal with the cards dealt: {exc.reason}"
            )
            return out
    over = state.is_terminal()
    out.add(
        "actions",
        over,
        f"all {len(record.actions)} actions are legal with the cards dealt"
        + (" and end the game" if over else ", but the game is not over"),
    )
    final = state.result()
    if result is not None and final is not None:
        got = final.to_dict()
        same = isinstance(result, Mapping) and all(
            result.get(key) == got[key] for key in ("scores", "winners")
        )
        out.add(
            "result",
            same,
            f"scores {got['scores']}, winners {got['winners']}"
            + (" as recorded" if same else f" but the record says {_short(result)}"),
        )
    if isinstance(data.get("board"), int):
        out.board = (label.rsplit(" game", 1)[0], data["board"])
        out.board_deal = (seed, data.get("server_seed"), record.dealer)
    return out


def _short(result: Any) -> str:
    if isinstance(result, Mapping):
        return f"scores {result.get('scores')}, winners {result.get('winners')}"
    return repr(result)


def check_boards(verified: list[Verified]) -> None:
    """Duplicate plays of one board must share its deal: the same seed, server seed and dealer."""
    boards: dict[tuple[Any, ...], list[Verified]] = {}
    for v in verified:
        if v.board is not None:
            boards.setdefault(v.board, []).append(v)
    for plays in boards.values():
        if len(plays) < 2:
            continue
        first = plays[0]
        for other in plays[1:]:
            same = other.board_deal == first.board_deal
            other.add(
                "board",
                same,
                f"board {other.board[1] if other.board else '?'}: same seed, server seed and dealer as {first.label}"
                if same
                else f"board {other.board[1] if other.board else '?'}: its deal differs from {first.label}'s",
            )


def verify_document(document: object) -> list[Verified]:
    """The checks of every record in ``document`` (see ``entries``), boards compared across them."""
    verified = [verify_record(label, record, result) for label, record, result in entries(document)]
    check_boards(verified)
    return verified
