"""Template helpers: card pictures and names, pool and game names, a match's seats."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _

from games.models import Match
from web import cards
from web.selectors import seat_labels

register = template.Library()


@register.inclusion_tag("web/_card.html")
def card(code: str, extra: str = "") -> dict[str, Any]:
    rank, suit = cards.card_parts(code)
    return {
        "code": code,
        "rank": rank,
        "suit": suit,
        "name": cards.card_name(code),
        "court": cards.RANK_NAMES.get(rank, ""),
        "extra": extra,
    }


@register.filter
def card_name(code: str) -> str:
    return cards.card_name(code)


@register.filter
def suit_name(letter: str) -> str:
    return cards.suit_name(letter)


@register.filter
def pool_name(pool: str) -> str:
    return {
        "tute2": _("Tute 2"),
        "tute4": _("Tute 4"),
        "tute4-pairs": _("Tute 4 pairs"),
        "pocha": _("Pocha"),
    }.get(pool, pool)


@register.filter
def game_name(game: str) -> str:
    return {"tute2": _("Tute 2"), "tute4": _("Tute 4"), "pocha": _("Pocha")}.get(game, game)


@register.filter
def status_name(status: str) -> str:
    names: dict[str, str] = {
        Match.Status.OPEN.value: _("open"),
        Match.Status.IN_PROGRESS.value: _("in progress"),
        Match.Status.FINISHED.value: _("finished"),
        Match.Status.ABORTED.value: _("aborted"),
    }
    return names.get(status, status)


@register.filter
def seat_names(match: Match) -> list[dict[str, Any]]:
    """The match's seats (prefetched) as name, handle and bot flag."""
    return seat_labels(match)


@register.filter
def finish_reason(reason: str) -> str:
    names = {
        "completed": _("played to the end"),
        "resigned": _("resignation"),
        "forfeit": _("forfeit (out of time)"),
    }
    return names.get(reason, reason)
