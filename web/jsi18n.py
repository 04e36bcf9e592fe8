"""The words the match page's JavaScript shows, translated on the server and handed over as JSON."""

from __future__ import annotations

from django.utils.translation import gettext as _

from web.cards import RANK_NAMES, SUIT_NAMES


def js_strings() -> dict[str, object]:
    return {
        "suits": SUIT_NAMES,
        "ranks": RANK_NAMES,
        "of": "de",
        "play": _("Play %(card)s"),
        "exchange": _("Swap the %(card)s for the face-up card"),
        "sing": _("Sing in %(suit)s"),
        "sing_tute": _("Sing tute"),
        "bid": _("Bid %(n)s"),
        "pass": _("Pass"),
        "your_turn": _("Your turn"),
        "waiting_players": _("Waiting for every seat to be taken."),
        "waiting_for": _("Waiting for %(name)s"),
        "trump": _("Trump"),
        "faceup": _("Face-up card"),
        "stock": _("Stock"),
        "tricks": _("Tricks"),
        "points": _("Points"),
        "score": _("Score"),
        "bids": _("Bid"),
        "hand": _("Hand %(n)s of %(total)s"),
        "cards": _("cards"),
        "last_trick": _("Last trick"),
        "table": _("On the table"),
        "cantes": _("Cantes"),
        "swaps": _("Swaps"),
        "finished": _("The match is over."),
        "winner": _("Winner"),
        "you": _("you"),
        "step": _("Step %(n)s of %(total)s"),
        "deal": _("The deal"),
        "played": _("%(name)s: %(action)s"),
        "error": _("Error"),
        "connection": _("Connection lost; retrying…"),
        "sang": _("%(name)s sang %(points)s in %(suit)s"),
        "swapped": _("%(name)s swapped the %(gave)s for the %(took)s"),
    }
