"""The rules engine for Tute 2, Tute 4 and Pocha: pure Python, no Django, no I/O, no clock, no global random."""

from .actions import parse_action
from .cards import CODE_OF, parse_card
from .records import Record, RecordError, ReplayError, export_record, load_record, replay, replay_steps
from .rules import GAMES, RULES_VERSION, Rules, RulesError
from .state import Result, State
from .table import IllegalAction, pocha_hand_score, tute_winners
from .views import SeatView, TrickView

__all__ = [
    "CODE_OF",
    "GAMES",
    "RULES_VERSION",
    "IllegalAction",
    "Record",
    "RecordError",
    "ReplayError",
    "Result",
    "Rules",
    "RulesError",
    "SeatView",
    "State",
    "TrickView",
    "export_record",
    "load_record",
    "parse_action",
    "parse_card",
    "pocha_hand_score",
    "replay",
    "replay_steps",
    "tute_winners",
]
