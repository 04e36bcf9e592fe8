"""Names of cards, suits and actions as the website shows them.

Suits and court cards keep their Spanish names in every language (oros, copas, espadas, bastos; sota,
caballo, rey): they are the names of the cards. The words around them are translated.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

SUIT_NAMES = {"O": "oros", "C": "copas", "E": "espadas", "B": "bastos"}
RANK_NAMES = {"1": "As", "10": "Sota", "11": "Caballo", "12": "Rey"}


def card_parts(code: str) -> tuple[str, str]:
    """``"12C"`` -> ``("12", "C")``."""
    return code[:-1], code[-1]


def card_name(code: str) -> str:
    """``"12C"`` -> ``"Rey de copas"``; ``"7O"`` -> ``"7 de oros"``."""
    rank, suit = card_parts(code)
    return f"{RANK_NAMES.get(rank, rank)} de {SUIT_NAMES[suit]}"


def suit_name(letter: str) -> str:
    return SUIT_NAMES.get(letter, letter)


def action_label(code: str) -> str:
    """A button's text for an action code (docs/RULES.md 8)."""
    kind, _sep, arg = code.partition(":")
    if kind == "play":
        return _("Play %(card)s") % {"card": card_name(arg)}
    if kind == "exchange":
        return _("Swap the %(card)s for the face-up card") % {"card": card_name(arg)}
    if kind == "sing":
        if arg == "tute":
            return _("Sing tute")
        return _("Sing in %(suit)s") % {"suit": suit_name(arg)}
    if kind == "bid":
        return _("Bid %(n)s") % {"n": arg}
    if kind == "pass":
        return _("Pass")
    return code
