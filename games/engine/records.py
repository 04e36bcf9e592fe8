"""Game records (docs/RULES.md section 10): load and validate, replay deterministically, export."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .cards import CODE_OF, parse_card
from .rules import Rules, RulesError
from .state import State
from .table import IllegalAction


class RecordError(ValueError):
    """A record that cannot be read as a game: the message says what is wrong."""


@dataclass(frozen=True, slots=True)
class Record:
    rules: Rules
    dealer: int
    decks: tuple[tuple[int, ...], ...] | None
    seed: str | None
    actions: tuple[str, ...]

    def initial_state(self) -> State:
        try:
            return State.new(self.rules, dealer=self.dealer, decks=self.decks, seed=self.seed)
        except RulesError as exc:
            raise RecordError(str(exc)) from None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.rules.game,
            "players": self.rules.players,
            "options": self.rules.to_options(),
            "dealer": self.dealer,
        }
        if self.seed is not None:
            out["seed"] = self.seed
        else:
            assert self.decks is not None
            out["decks"] = [[CODE_OF[c] for c in deck] for deck in self.decks]
        out["actions"] = list(self.actions)
        return out


def load_record(data: object) -> Record:
    """Validate a parsed JSON record; ``RecordError`` says what is wrong with it."""
    if not isinstance(data, Mapping):
        raise RecordError(f"a record is a JSON object, not {type(data).__name__}")
    game = data.get("game")
    if not isinstance(game, str):
        raise RecordError('"game" must be one of "tute2", "tute4", "pocha"')
    try:
        rules = Rules.build(game, data.get("players"), data.get("options"))
    except RulesError as exc:
        raise RecordError(str(exc)) from None
    dealer = data.get("dealer", 0)
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < rules.players:
        raise RecordError(f'"dealer" must be a seat from 0 to {rules.players - 1}, not {dealer!r}')
    has_decks, has_seed = "decks" in data, "seed" in data
    if has_decks == has_seed:
        raise RecordError('a record has "decks" or "seed", exactly one of them')
    decks: tuple[tuple[int, ...], ...] | None = None
    seed: str | None = None
    if has_decks:
        raw = data["decks"]
        if not isinstance(raw, list) or not all(isinstance(d, list) for d in raw):
            raise RecordError('"decks" must be a list of decks, each a list of card codes')
        try:
            decks = tuple(tuple(parse_card(c) for c in deck) for deck in raw)
        except ValueError as exc:
            raise RecordError(f'"decks": {exc}') from None
    else:
        raw_seed = data["seed"]
        if isinstance(raw_seed, bool) or not isinstance(raw_seed, str | int):
            raise RecordError('"seed" must be a text')
        seed = str(raw_seed)
    actions = data.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError('"actions" must be a list of action codes')
    record = Record(rules=rules, dealer=dealer, decks=decks, seed=seed, actions=tuple(actions))
    record.initial_state()  # the decks must fit the game
    return record


@dataclass(frozen=True, slots=True)
class Step:
    index: int
    seat: int
    legal: tuple[str, ...]
    action: str
    before: State
    after: State


class ReplayError(ValueError):
    """An action of a record that is not legal where it stands."""

    def __init__(self, index: int, action: str, reason: str, steps: list[Step]) -> None:
        super().__init__(f"step {index} ({action}): {reason}")
        self.index = index
        self.action = action
        self.reason = reason
        self.steps = steps


def replay_steps(record: Record) -> Iterator[Step]:
    """Each action of the record with the state before and after it; stops at an illegal action."""
    state = record.initial_state()
    for index, action in enumerate(record.actions):
        seat = state.current_player()
        legal = state.legal_actions()
        if seat is None:
            raise IllegalAction("the game is over", action)
        after = state.apply(action)
        yield Step(index=index, seat=seat, legal=legal, action=action, before=state, after=after)
        state = after


def replay(record: Record) -> State:
    """The state at the end of the record; ``ReplayError`` names the first illegal action."""
    state = record.initial_state()
    steps: list[Step] = []
    iterator = replay_steps(record)
    while True:
        try:
            step = next(iterator)
        except StopIteration:
            return steps[-1].after if steps else state
        except IllegalAction as exc:
            index = len(steps)
            raise ReplayError(index, record.actions[index], exc.reason, steps) from None
        steps.append(step)


def export_record(state: State, *, seed: str | None = None) -> dict[str, Any]:
    """The record of a game as played so far; with ``seed`` the decks are given by their seed."""
    t = state.table
    record = Record(
        rules=t.rules,
        dealer=t.first_dealer,
        decks=None if seed is not None else t.decks,
        seed=seed,
        actions=state.history(),
    )
    return record.to_dict()
