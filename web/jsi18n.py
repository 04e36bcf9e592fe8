"""The words the match page's JavaScript shows, translated on the server and handed over as JSON."""

from __future__ import annotations

from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from web.cards import RANK_NAMES, SUIT_NAMES
from web.errors import MESSAGES

#: The service objections a move on the match page may meet.
PLAY_ERRORS = ("not_your_turn", "stale_ply", "illegal_action", "match_not_in_progress", "not_seated")


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
        "away": _("away"),
        "hint": _("Hint: %(move)s"),
        # the replay's review (games.services.review): a decision's line, the summary, the worst moments
        "review_best": _("Review: the best move (%(points)s points expected)."),
        "review_cost": _(
            "Review: the best was %(best)s (%(points)s points expected); this cost %(cost)s points."
        ),
        "review_worst": _("One of the game's worst moments."),
        "review_total": _("Points lost: %(points)s over %(n)s decisions (%(each)s a decision)."),
        "review_moment": _("Step %(n)s: %(played)s, the best was %(best)s (cost: %(cost)s)"),
        "review_no_worst": _("No decision cost 2 points or more."),
        "review_queued": _("Asking for the review…"),
        "review_running": _("Reviewing: %(done)s of %(n)s decisions…"),
        "review_errors": {
            "review_not_allowed": _(
                "Only the person who held that seat may see its review until the match is public and over."
            ),
            "game_not_finished": _("The game is not over yet."),
            "no_moves_to_review": _("Played over the board: there are no moves to review."),
        },
        "waiting_for": _("Waiting for %(name)s"),
        "trump": _("Trump"),
        "faceup": _("Face-up card"),
        "stock": _("Stock"),
        "tricks": _("Tricks"),
        "points": _("Points"),
        "score": _("Score"),
        "bids": _("Bid"),
        "hand": _("Hand %(n)s of %(total)s"),
        # a duplicate match's game: the board it deals (the same cards in each of the board's plays)
        "board_n": _("Board %(n)s: the same cards in each of its plays"),
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
        "loading": _("Loading…"),
        "sang": _("%(name)s sang %(points)s in %(suit)s"),
        "swapped": _("%(name)s swapped the %(gave)s for the %(took)s"),
        "seat_n": _("Seat %(n)s"),
        "cards_n": _("cards: %(n)s"),
        "tricks_n": _("tricks: %(n)s"),
        "bid_n": _("bid: %(n)s"),
        "score_n": _("score: %(n)s"),
        "dealer": _("Dealer"),
        "dealer_mark": pgettext("dealer's marker on a seat", "D"),
        "mano": _("Mano: plays first"),
        "mano_mark": pgettext("mano's marker on a seat", "M"),
        "arrastre": _("Arrastre"),
        "arrastre_help": _("The stock is empty: follow suit and beat the trick when you can."),
        # "for 1 trick" / "for 2 tricks": both forms, the page picks by the count (English and Spanish
        # use the first form for 1 alone)
        "bid_total_one": ngettext(
            "Bids: %(bids)s for %(tricks)s trick", "Bids: %(bids)s for %(tricks)s tricks", 1
        ),
        "bid_total": ngettext(
            "Bids: %(bids)s for %(tricks)s trick", "Bids: %(bids)s for %(tricks)s tricks", 2
        ),
        "won_trick": _("%(name)s won the trick (%(points)s points)"),
        "last_trick_won": _("Last trick: %(name)s won it (%(points)s points)"),
        "diez_ultimas": _("diez de últimas: +10"),
        "hook": _(
            "Not allowed: %(n)s. The dealer may not bid so that the bids add up to %(k)s, the tricks of the "
            "hand (someone must miss)."
        ),
        "bid_first": _("Bid first: the cards are played after the bidding."),
        "legal_hint": _("Raised cards are the ones the rules let you play now."),
        "scoresheet": _("Scoresheet"),
        "hand_col": _("Hand (cards)"),
        "sheet_cell": _("bid %(bid)s · made %(won)s · %(points)s"),
        "time_left": _("%(t)s left"),
        "clock": _("Time left for this move"),
        "hurry": _(
            "Hurry: in %(s)s s the server plays for you (timeouts so far: %(used)s of %(max)s; at %(max)s "
            "you forfeit)."
        ),
        "you_cap": _("You"),
        "auto_played": _(
            "Your time ran out: the server played for you (%(action)s). Timeouts: %(used)s of %(max)s; at "
            "%(max)s you forfeit."
        ),
        "timed_out": _("out of time"),
        "resign_confirm": _("Resign this match? It counts as a loss."),
        "errors": {code: str(MESSAGES[code]) for code in PLAY_ERRORS},
        "english": (get_language() or "en").startswith("en"),
    }
