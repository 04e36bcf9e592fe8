"""Rules variants: one frozen, validated config object per game (docs/RULES.md flags).

Every flag of docs/RULES.md is a field here with the product's default. A flag that the chosen game does
not use is accepted and has no effect (``stock_duty`` in Tute 4, say), so one options dict can be
shared across games; an unknown flag or a bad value is a ``RulesError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Final

#: Bumped whenever a rule change would make an old record replay differently.
RULES_VERSION: Final = "1"

GAMES: Final = ("tute2", "tute4", "pocha")
PLAYERS: Final = {"tute2": (2, 2, 2), "tute4": (4, 4, 4), "pocha": (2, 6, 4)}  # (min, max, default)

STOCK_DUTIES: Final = ("full", "trump_lead_only", "free")
TUTE_DECLARATIONS: Final = ("off", "wins_hand")
FIRST_LEADS: Final = ("two_of_oros", "mano")
POCHA_SEQUENCES: Final = ("spanish", "up_down")

#: The games played by pairs: seats 0 and 2 against seats 1 and 3.
PARTNER_GAMES: Final = frozenset({"tute4"})


def side_of(game: str, seat: int) -> int:
    """The side ``seat`` plays for in ``game``: its pair in a partner game, else the seat itself. The
    one place that says so: ``Rules.side_of``, the table, the services, the tournaments, the website and
    the bots ask it."""
    return seat % 2 if game in PARTNER_GAMES else seat


class RulesError(ValueError):
    """Options that do not make a valid game: the message says which and why."""


@dataclass(frozen=True, slots=True)
class Rules:
    game: str
    players: int
    stock_duty: str = "full"
    must_undertrump: bool = False
    beat_led_suit_even_if_trumped: bool = False
    partner_exception: bool = False
    partner_may_sing: bool = False
    exchange_requires_trick_win: bool = False
    cante_before_draw: bool = False
    cantes_in_arrastre: bool = True
    forty_before_twenty: bool = False
    tute_declaration: str = "off"
    last_trick_bonus: bool = False
    first_lead: str = "two_of_oros"
    deck48: bool = False
    pocha_sequence: str | tuple[int, ...] = "spanish"
    pocha_max_cards: int | None = None
    pocha_hook: bool = True

    @classmethod
    def build(cls, game: str, players: int | None = None, options: Mapping[str, Any] | None = None) -> Rules:
        """Validate a game name, a player count and an options mapping into a Rules object."""
        if game not in GAMES:
            raise RulesError(f"unknown game {game!r}: expected one of {', '.join(GAMES)}")
        low, high, default = PLAYERS[game]
        if players is None:
            players = default
        if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
            span = str(low) if low == high else f"{low} to {high}"
            raise RulesError(f"{game} is played by {span} players, not {players!r}")
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise RulesError(f"options must be an object of flag: value, not {type(options).__name__}")
        values: dict[str, Any] = {"last_trick_bonus": game == "tute4"}
        for name, value in options.items():
            if name not in FLAG_NAMES:
                raise RulesError(
                    f"unknown rules flag {name!r}: known flags are {', '.join(sorted(FLAG_NAMES))}"
                )
            values[name] = _check_flag(name, value)
        rules = cls(game=game, players=players, **values)
        rules.hand_sizes()  # a sequence that cannot be dealt is an error now, not mid-game
        return rules

    # Derived facts, fixed when built; fields rather than properties because the rules loop reads them
    # on every card.
    is_tute: bool = field(init=False, repr=False, compare=False)
    has_stock: bool = field(init=False, repr=False, compare=False)
    has_partners: bool = field(init=False, repr=False, compare=False)
    sides: int = field(init=False, repr=False, compare=False)
    without_twos: bool = field(init=False, repr=False, compare=False)
    deck_size: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        without_twos = self.game == "pocha" and self.players in (3, 6)
        object.__setattr__(self, "is_tute", self.game != "pocha")
        object.__setattr__(self, "has_stock", self.game == "tute2")
        object.__setattr__(self, "has_partners", self.game in PARTNER_GAMES)
        object.__setattr__(self, "sides", 2 if self.has_partners else self.players)
        object.__setattr__(self, "without_twos", without_twos)
        object.__setattr__(self, "deck_size", (48 if self.deck48 else 40) - (4 if without_twos else 0))

    def side_of(self, seat: int) -> int:
        """The side ``seat`` plays for (the module's ``side_of``)."""
        return side_of(self.game, seat)

    def hand_sizes(self) -> tuple[int, ...]:
        """Cards dealt to each player in each hand of the game (one hand for the Tute games)."""
        if self.game == "tute2":
            return (8,)
        if self.game == "tute4":
            return (self.deck_size // 4,)
        n = self.players
        most = self.deck_size // n
        if self.pocha_max_cards is not None:
            most = min(most, self.pocha_max_cards)
        seq = self.pocha_sequence
        if seq == "spanish":
            return (1,) * n + tuple(range(2, most)) + (most,) * n + tuple(range(most - 1, 1, -1)) + (1,) * n
        if seq == "up_down":
            return tuple(range(1, most + 1)) + tuple(range(most - 1, 0, -1))
        assert isinstance(seq, tuple)
        for k in seq:
            if not 1 <= k <= most:
                raise RulesError(f"pocha_sequence: a hand of {k} cards is not possible (1 to {most} here)")
        return seq

    def to_options(self) -> dict[str, Any]:
        """Every flag with its value, as in a game record."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name in ("game", "players") or not f.init:
                continue
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


FLAG_NAMES: Final = frozenset(f.name for f in fields(Rules) if f.init) - {"game", "players"}
_BOOL_FLAGS: Final = frozenset(f.name for f in fields(Rules) if f.init and isinstance(f.default, bool))
_CHOICES: Final = {
    "stock_duty": STOCK_DUTIES,
    "tute_declaration": TUTE_DECLARATIONS,
    "first_lead": FIRST_LEADS,
}


def _check_flag(name: str, value: Any) -> Any:
    if name in _CHOICES:
        if value not in _CHOICES[name]:
            raise RulesError(f"{name} must be one of {', '.join(_CHOICES[name])}, not {value!r}")
        return value
    if name == "pocha_sequence":
        if isinstance(value, str):
            if value not in POCHA_SEQUENCES:
                raise RulesError(
                    f"pocha_sequence must be spanish, up_down or a list of hand sizes, not {value!r}"
                )
            return value
        if (
            isinstance(value, list | tuple)
            and value
            and all(isinstance(k, int) and not isinstance(k, bool) for k in value)
        ):
            return tuple(value)
        raise RulesError(
            f"pocha_sequence must be spanish, up_down or a non-empty list of integers, not {value!r}"
        )
    if name == "pocha_max_cards":
        if value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 1):
            return value
        raise RulesError(f"pocha_max_cards must be a positive integer or null, not {value!r}")
    if name in _BOOL_FLAGS:
        if not isinstance(value, bool):
            raise RulesError(f"{name} must be true or false, not {value!r}")
        return value
    raise AssertionError(f"flag {name} has no validator")  # pragma: no cover
