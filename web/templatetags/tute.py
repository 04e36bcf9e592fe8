"""Template helpers: card pictures and names, pool and game names, a match's seats."""

from __future__ import annotations

from datetime import UTC
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext as _

from games.models import Match
from web import cards, names
from web.selectors import seat_labels, side_of

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
def bot_level(level: str) -> str:
    """A house bot's level as its name everywhere ("Rule bot")."""
    return names.bot_level_name(level)


@register.filter
def bot_level_description(level: str) -> str:
    """What a house bot level plays like, in a sentence."""
    return names.bot_level_description(level)


@register.filter
def entrant_name(name: str | None) -> str:
    return names.entrant_name(name) if name else ""


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
def winner_names(match: Match) -> str:
    """Who won a finished match (prefetched seats): the winning side's names."""
    if not match.result:
        return ""
    winners = set(match.result.get("winners", []))
    labels = seat_labels(match)
    return " & ".join(s["name"] for s in labels if side_of(match, s["index"]) in winners)


@register.filter
def result_name(value: str | None) -> str:
    names = {"won": _("won"), "lost": _("lost"), "shared": _("shared")}
    return names.get(value or "", "")


@register.filter
def finish_reason(reason: str) -> str:
    names = {
        "completed": _("played to the end"),
        "resigned": _("resignation"),
        "forfeit": _("forfeit (out of time)"),
    }
    return names.get(reason, reason)


@register.filter
def format_name(value: str) -> str:
    names = {
        "single_elim": _("Single elimination"),
        "double_elim": _("Double elimination"),
        "round_robin": _("Round robin"),
        "swiss": _("Swiss"),
        "pocha_tables": _("Pocha tables"),
    }
    return names.get(value, value)


@register.filter
def tournament_status(value: str) -> str:
    names = {
        "registration": _("taking entries"),
        "running": _("in play"),
        "finished": _("finished"),
        "cancelled": _("called off"),
    }
    return names.get(value, value)


@register.filter
def section_name(value: str) -> str:
    names = {
        "W": _("Winners' bracket"),
        "L": _("Losers' bracket"),
        "GF": _("Grand final"),
        "3P": _("Third place"),
    }
    return names.get(value, value)


@register.filter
def tie_break_name(value: str) -> str:
    names = {
        "buchholz": _("Buchholz"),
        "sonneborn_berger": _("Sonneborn-Berger"),
        "head_to_head": _("Head to head"),
        "games_won": _("Games won"),
        "card_point_difference": _("Card points +/-"),
    }
    return names.get(value, value)


@register.filter
def get_item(mapping: dict[str, Any], key: str) -> Any:
    return mapping.get(key)


@register.filter
def get_item_index(values: Any, index: int) -> Any:
    try:
        return values[index]
    except (IndexError, KeyError, TypeError):
        return None


@register.filter
def entrant_status(value: str) -> str:
    names = {
        "invited": _("invited"),
        "registered": _("registered"),
        "checked_in": _("checked in"),
        "active": _("playing"),
        "withdrawn": _("withdrawn"),
        "absent": _("absent"),
    }
    return names.get(value, value)


@register.simple_tag
def round_title(section: str, number: int, total: int, tournament_format: str) -> str:
    """An elimination round by its name (final, semi-finals, quarter-finals); others "Round N"."""
    if section == "GF":
        return str(_("Grand final") if number == 1 else _("Grand final, second match"))
    if section == "3P":
        return str(_("Third-place match"))
    if section == "W":
        from_end = total - number
        final = _("Winners' final") if tournament_format == "double_elim" else _("Final")
        names = {0: final, 1: _("Semi-finals"), 2: _("Quarter-finals")}
        if from_end in names:
            return str(names[from_end])
    return _("Round %(n)s") % {"n": number}


@register.simple_tag
def local_time(value: Any) -> Any:
    """A moment as a <time> the page's script shows in the reader's time zone (UTC without script)."""
    if value is None:
        return ""
    utc = value.astimezone(UTC)
    return format_html(
        '<time datetime="{}" class="local-time">{} UTC</time>',
        utc.isoformat(),
        utc.strftime("%Y-%m-%d %H:%M"),
    )
