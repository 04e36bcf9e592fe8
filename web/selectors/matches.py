"""Reads for the website's match and player pages: lists of matches, ratings, a match's seats, outcome
and result, a player's record. Lists fetch what they show in a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Prefetch, Q, QuerySet

from games.engine import Rules
from games.engine.rules import side_of as engine_side_of
from games.models import Game, Match, Player, Seat
from games.selectors import matches_list
from games.states import match_rules
from ratings.models import Pool, Rating, RatingChange
from ratings.selectors import is_provisional, leaderboard, player_ratings
from tournaments.models import Membership
from web import names
from web.selectors.replay import ReplayGame

#: Pools in the order the website lists them.
POOLS: tuple[str, ...] = tuple(Pool.values)
BOTS_FILTERS = ("include", "exclude", "only")


def seats_of_game(*, game: str, players: int | None, options: dict[str, Any]) -> int:
    """How many seats a match of ``game`` has (Pocha: ``players``, else its default); RulesError if the
    game or its options are not valid."""
    return Rules.build(game, players, options).players


def live_matches(*, limit: int = 10) -> list[Match]:
    """Matches being played now, newest first, with their seats and players (two queries)."""
    return list(matches_list(status=Match.Status.IN_PROGRESS)[:limit])


def recent_matches(*, player: Player | None = None, limit: int = 10) -> list[Match]:
    """Finished matches, newest first (of ``player`` when given), with seats and players (two queries)."""
    qs = matches_list(status=Match.Status.FINISHED, player=player.handle if player else None)
    return list(qs.order_by("-finished_at", "-id")[:limit])


def player_matches(*, player: Player, limit: int = 20) -> list[Match]:
    """The player's matches of any status, newest first, with seats and players (two queries)."""
    return list(matches_list(player=player.handle)[:limit])


def top_ratings(*, per_pool: int = 5) -> dict[str, list[Rating]]:
    """The best ``per_pool`` ratings of each pool (one query a pool)."""
    return {pool: list(leaderboard(pool=pool)[:per_pool]) for pool in POOLS}


def leaderboard_page(*, pool: str, bots: str = "include", club: str | None = None) -> QuerySet[Rating]:
    """A pool's leaderboard, best first, players joined; the view paginates it.

    ``club`` (a slug) keeps the ratings of the club's members (pairs: either player a member).
    """
    qs = leaderboard(pool=pool, bots=bots if bots in BOTS_FILTERS else "include")
    if club:
        members = Membership.objects.filter(club__slug=club).values("player_id")
        qs = qs.filter(Q(player_id__in=members) | Q(partner_id__in=members))
    return qs


def rating_label(rating: Rating) -> str:
    """Who a rating belongs to: a player, a pair, or a house bot level."""
    if rating.player is not None and rating.partner is not None:
        return f"{rating.player.display_name} & {rating.partner.display_name}"
    if rating.player is not None:
        return rating.player.display_name
    return names.bot_level_name(rating.house_bot)


def player_by_handle(*, handle: str) -> Player | None:
    return Player.objects.select_related("owner").filter(handle=handle).first()


def player_rating_summaries(*, player: Player) -> list[dict[str, Any]]:
    """Each pool's current rating of the player with its history and whether it is provisional."""
    return [
        {**row, "provisional": is_provisional(row["rating"]), "pool": row["rating"].pool}
        for row in player_ratings(player=player)
    ]


def bots_of(*, user: User) -> list[Player]:
    """The bot accounts ``user`` runs."""
    return list(Player.objects.filter(owner=user, is_bot=True).order_by("handle"))


def match_page(*, match_id: int) -> Match | None:
    """A match with its current game, its seats, their players and its games (three queries)."""
    return (
        Match.objects.select_related("current_game")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("index")),
            Prefetch("games", queryset=Game.objects.order_by("number")),
        )
        .filter(pk=match_id)
        .first()
    )


def seat_labels(match: Match, viewer: int | None = None) -> list[dict[str, Any]]:
    """Per seat (prefetched): its name (web.names, one name per house bot everywhere), handle, bot flag,
    number, relation to the viewer's seat and place around the table."""
    return names.seat_labels(list(match.seats.all()), game=match.game, viewer=viewer)


#: Which games a rules flag applies to (docs/RULES.md, the flags' table); unlisted flags: every game.
_FLAG_GAMES = {
    "partner_exception": {"tute4"},
    "partner_may_sing": {"tute4"},
    "first_lead": {"tute4"},
    "exchange_requires_trick_win": {"tute2"},
    "cante_before_draw": {"tute2"},
    "cantes_in_arrastre": {"tute2", "tute4"},
    "forty_before_twenty": {"tute2", "tute4"},
    "tute_declaration": {"tute2", "tute4"},
    "last_trick_bonus": {"tute2", "tute4"},
    "stock_duty": {"tute2"},
    "pocha_sequence": {"pocha"},
    "pocha_max_cards": {"pocha"},
    "pocha_hook": {"pocha"},
}


def variant_in_force(match: Match) -> list[dict[str, Any]]:
    """Every rules flag of the match's game with its value, those chosen for this match marked."""
    chosen = set(match.options or {})
    out = []
    for name, value in match_rules(match).to_options().items():
        if match.game not in _FLAG_GAMES.get(name, {match.game}):
            continue
        shown = ", ".join(str(v) for v in value) if isinstance(value, list) else value
        out.append({"name": name, "value": shown, "chosen": name in chosen})
    return out


def table_scoring(match: Match) -> dict[str, bool]:
    """What the live table may announce as scored, from the engine's rules in force for this match (the
    page decides no rule): whether the last trick of a hand is worth 10 (``last_trick_bonus``)."""
    return {"last_trick_bonus": match_rules(match).last_trick_bonus}


def match_outcome(match: Match, cantes: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """A finished match's sides: their seats' names, games won, the last game's score, who won.

    Tute 4 has two sides (seats 0+2 and 1+3); the other games one side a seat. Reads the prefetched seats
    and games only; ``cantes`` (the last game's, from its replay) go to their sides.
    """
    if match.result is None:
        return []
    labels = seat_labels(match)
    side_count = match_rules(match).sides
    games = [g for g in match.games.all() if g.result]
    last = games[-1] if games else None
    # The last game's scores are by game side, its cantes by game seat: a duplicate match's later plays
    # rotate the seats, so each goes to the side of the match seat that held it.
    last_scores: dict[int, Any] = {}
    if last is not None and last.result:
        for game_side, score in enumerate(last.result.get("scores", [])):
            last_scores[side_of(match, last.match_seat(game_side))] = score
    mapped = [
        {**c, "seat": last.match_seat(c["seat"]) if last is not None else c["seat"]} for c in cantes or []
    ]
    won = match.result.get("games_won", [0] * side_count)
    winners = set(match.result.get("winners", []))
    difference = match.result.get("score_difference")  # a duplicate match's result
    return [
        {
            "names": [labels[i]["name"] for i in range(len(labels)) if (i % side_count) == side],
            "games_won": won[side] if side < len(won) else 0,
            "score": last_scores.get(side),
            "difference": difference[side] if difference and side < len(difference) else None,
            "winner": side in winners,
            "cantes": [c for c in mapped if side_of(match, c["seat"]) == side],
        }
        for side in range(side_count)
    ]


def pocha_scoresheet(*, match: Match, replay: list[ReplayGame]) -> list[dict[str, Any]]:
    """A finished Pocha match's scoresheet, hand by hand: cards dealt, then per seat bid, made, points and
    the running total (from the replay's last step, which the engine computed)."""
    if match.game != Match.GameName.POCHA or not replay or not replay[-1].steps:
        return []
    hands = replay[-1].steps[-1].get("hands_played") or []
    seat_map = replay[-1].seat_map
    totals = [0] * match.num_players
    rows = []
    for number, hand in enumerate(hands, start=1):
        cells = []
        for match_seat in range(match.num_players):
            # the columns are the match's seats; the hands speak in game seats (rotated in duplicate)
            seat = seat_map.index(match_seat) if seat_map else match_seat
            points = hand["scores"][seat]
            totals[match_seat] += points
            cells.append(
                {
                    "bid": hand["bids"][seat],
                    "made": hand["tricks"][seat],
                    "points": points,
                    "total": totals[match_seat],
                }
            )
        rows.append({"number": number, "cards": hand["cards"], "cells": cells})
    return rows


def side_of(match: Match | str, seat: int) -> int:
    """The side a seat plays for: Tute 4's pairs (seats 0+2, 1+3), else the seat itself."""
    return engine_side_of(match if isinstance(match, str) else match.game, seat)


def seat_result(result: dict[str, Any] | None, game: str, seat: int) -> str | None:
    """``won``, ``lost`` or ``shared`` (a win shared by tied sides) for a seat of a finished match."""
    if not result:
        return None
    winners = set(result.get("winners", []))
    if side_of(game, seat) not in winners:
        return "lost"
    return "won" if len(winners) == 1 else "shared"


def my_outcome(*, match: Match, seat: int | None, player: Player | None) -> dict[str, Any] | None:
    """The person's own outcome of a finished match: won or lost, and what it did to their ratings."""
    if seat is None or player is None or match.result is None:
        return None
    changes = list(
        RatingChange.objects.filter(match=match)
        .filter(Q(rating__player=player) | Q(rating__partner=player))
        .order_by("pool")
        .values("pool", "before", "after", "delta")
    )
    return {
        "result": seat_result(match.result, match.game, seat),
        "changes": changes,
        "rated": match.rated,
    }


def rematch_fields(match: Match) -> dict[str, Any] | None:
    """The /play/ form's fields for the same match again, when the person played house bots alone."""
    seats = list(match.seats.all())
    levels = {s.bot_level for s in seats if s.bot_level}
    people = [s for s in seats if s.player_id is not None]
    if (
        len(people) != 1
        or len(levels) != 1
        or len(people) + sum(1 for s in seats if s.bot_level) != len(seats)
    ):
        return None
    fields: dict[str, Any] = {"game": match.game, "bot": levels.pop()}
    if match.game == Match.GameName.POCHA:
        fields["players"] = match.num_players
        sequence = (match.options or {}).get("pocha_sequence")
        if sequence in ("spanish", "up_down"):
            fields["pocha_sequence"] = sequence
        if (match.options or {}).get("pocha_max_cards"):
            fields["pocha_max_cards"] = match.options["pocha_max_cards"]
    return fields


@dataclass(frozen=True, slots=True)
class MatchRow:
    """A match in a player's list: how it went for them and what it did to their rating."""

    match: Match
    result: str | None
    delta: float | None


def player_match_rows(*, player: Player, matches: list[Match]) -> list[MatchRow]:
    """``matches`` (seats prefetched) with the player's result and rating change in each (one query)."""
    deltas: dict[int, float] = {}
    changes = RatingChange.objects.filter(match__in=[m.pk for m in matches]).filter(
        Q(rating__player=player) | Q(rating__partner=player)
    )
    for match_id, delta in changes.values_list("match_id", "delta"):
        deltas[match_id] = deltas.get(match_id, 0.0) + delta
    rows = []
    for m in matches:
        seat = next((s.index for s in m.seats.all() if s.player_id == player.pk), None)
        result = seat_result(m.result, m.game, seat) if seat is not None and m.status == "finished" else None
        rows.append(MatchRow(match=m, result=result, delta=deltas.get(m.pk)))
    return rows


def player_record(*, player: Player) -> dict[str, dict[str, int]]:
    """Per game, the player's finished matches won, lost and shared (one query)."""
    record: dict[str, dict[str, int]] = {}
    seats = Seat.objects.filter(player=player, match__status=Match.Status.FINISHED).values_list(
        "index", "match__game", "match__result"
    )
    for index, game, result in seats:
        outcome = seat_result(result, game, index)
        if outcome is None:
            continue
        row = record.setdefault(game, {"won": 0, "lost": 0, "shared": 0})
        row[outcome] += 1
    return record
