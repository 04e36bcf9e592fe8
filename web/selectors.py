"""Reads for the website's pages. Writes go through the apps' services; nothing here changes a row.

Lists fetch what they show in a fixed number of queries (tests/web asserts the counts): seats and their
players are prefetched, ratings come with their players joined.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.cache import cache
from django.db.models import F, Prefetch, Q, QuerySet
from django.utils import timezone

from games.engine import Rules, State
from games.engine.cards import codes_of
from games.engine.views import SeatView
from games.models import Action, Game, Match, Player, Seat
from games.selectors import boards_sealed, matches_list
from games.states import match_rules
from ratings.models import Pool, Rating, RatingChange
from ratings.selectors import is_provisional, leaderboard, player_ratings
from tournaments.models import Club, Correction, Entrant, Membership, Tournament, TournamentMatch
from tournaments.selectors import (
    BracketView,
    EntrantRef,
    RoundRow,
    StandingRow,
    bracket_view,
    corrections_of,
    entrants_of,
    rounds_with_matches,
    standings_table,
    tournaments_list,
)
from web import names

#: Pools in the order the website lists them.
POOLS: tuple[str, ...] = tuple(Pool.values)
BOTS_FILTERS = ("include", "exclude", "only")
REPLAY_CACHE_SECONDS = 24 * 3600
#: The replay viewer gets a game's steps this many at a time (a long Pocha has thousands).
REPLAY_PAGE_STEPS = 100


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


def match_outcome(match: Match, cantes: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """A finished match's sides: their seats' names, games won, the last game's score, who won.

    Tute 4 has two sides (seats 0+2 and 1+3); the other games one side a seat. Reads the prefetched seats
    and games only; ``cantes`` (the last game's, from its replay) go to their sides.
    """
    if match.result is None:
        return []
    labels = seat_labels(match)
    side_count = 2 if match.game == Match.GameName.TUTE4 else match.num_players
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
    game = match if isinstance(match, str) else match.game
    return seat % 2 if game == Match.GameName.TUTE4 else seat


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


@dataclass(frozen=True, slots=True)
class ReplayGame:
    """One game's replay. Its steps speak in game seats (hands, tricks, the acting seat, bids, cantes,
    scores by game side); ``seat_map`` gives, for each game seat, the match seat that held it (a duplicate
    match's later plays rotate the seats; None: the identity)."""

    number: int
    result: dict[str, Any] | None
    steps: list[dict[str, Any]]
    board: int | None = None
    seat_map: list[int] | None = None


def match_replay(*, match: Match) -> list[ReplayGame]:
    """Every game of a finished match, step by step, with every seat's hand: the replay viewer's data.

    Only for finished matches: until then the deals are secret (docs/RULES.md 9). Two queries: the games and
    the actions; the engine replays each game from its seed.
    """
    if match.status != Match.Status.FINISHED or boards_sealed(match):  # other tables still play its boards
        return []
    # A finished match never changes: its replay is computed once per cache.
    key = f"web:replay:v3:{match.pk}:{match.finished_at.isoformat() if match.finished_at else ''}"
    cached = cache.get(key)
    if cached is not None:
        return list(cached)
    replay = _replay(match)
    cache.set(key, replay, REPLAY_CACHE_SECONDS)
    return replay


def replay_index(replay: list[ReplayGame]) -> list[dict[str, Any]]:
    """What the replay viewer needs to move through each game without its steps: the number of steps,
    the step each Pocha hand starts at and the steps that end a trick (the steps come a page at a time)."""
    out = []
    for game in replay:
        hands: list[list[int]] = []
        for i, step in enumerate(game.steps):
            if step["hands_total"] > 1 and (not hands or hands[-1][0] != step["hand_number"]):
                hands.append([step["hand_number"], i])
        out.append(
            {
                "number": game.number,
                "steps": len(game.steps),
                "hands_total": game.steps[0]["hands_total"] if game.steps else 1,
                "hands": hands,
                "trick_ends": [i for i, step in enumerate(game.steps) if step["trick_end"]],
                "board": game.board,
                "seat_map": game.seat_map,
            }
        )
    return out


def replay_whole(game: ReplayGame, *, names: list[str]) -> dict[str, Any]:
    """The replay viewer's data for one game shown whole, in one page (a board's play: one deal), its seats
    named by ``names`` (game seat -> who held it), not by the page's match."""
    return {
        "url": None,
        "page": max(len(game.steps), 1),
        "games": [{**replay_index([game])[0], "names": names}],
        "first": game.steps,
    }


def replay_page(replay: list[ReplayGame], *, game: int, start: int) -> list[dict[str, Any]] | None:
    """One page of a game's steps, from ``start`` (a multiple of REPLAY_PAGE_STEPS); None when there is
    no such game or page."""
    if not 0 <= game < len(replay) or start % REPLAY_PAGE_STEPS or not 0 <= start < len(replay[game].steps):
        return None
    return replay[game].steps[start : start + REPLAY_PAGE_STEPS]


def _replay(match: Match) -> list[ReplayGame]:
    games = list(match.games.all())
    actions: dict[int, list[Action]] = {game.pk: [] for game in games}
    for action in Action.objects.filter(match=match).order_by("ply").only("game_id", "ply", "seat", "code"):
        actions[action.game_id].append(action)
    rules = match_rules(match)
    return [game_replay(game, rules, actions[game.pk]) for game in games]


def game_replay(game: Game, rules: Rules, actions: list[Action]) -> ReplayGame:
    """A finished game replayed from its seed: one step for the deal, then one per action (no query)."""
    state = State.new(rules, dealer=game.dealer, seed=game.seed)
    public = state.view(None)
    steps = [_snapshot(state, public, None, tricks_before=0, hand_before=0)]
    for action in actions:
        state = state.apply(action.code)
        after = state.view(None)
        # The action's row keeps the match seat; the step speaks in the game's seats like the rest of it.
        acted = {"seat": game.game_seat(action.seat), "code": action.code}
        steps.append(
            _snapshot(state, after, acted, tricks_before=len(public.tricks), hand_before=public.hand_number)
        )
        public = after
    return ReplayGame(
        number=game.number, result=game.result, steps=steps, board=game.board, seat_map=game.seat_map
    )


# -- boards: the plays of one deal side by side -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BoardHolder:
    """Who held one game seat's cards in one play of a board, the cards dealt and the tricks won."""

    seat: int  # the game seat: the same cards in every play of the board
    match_seat: int
    name: str
    handle: str | None
    hand: list[str]
    tricks: int


@dataclass(frozen=True, slots=True)
class BoardSide:
    """One side's cards in one play (Tute 4: the pair of game seats 0+2 or 1+3): who held them, what they
    scored, what the cards average (the luck figure, None until worked out) and ``versus``, the score
    minus the average of every play of these cards on this board: what this play did better or worse."""

    side: int
    names: list[str]
    score: int | None
    expected: float | None
    versus: float | None


@dataclass(frozen=True, slots=True)
class BoardPlay:
    match_id: int
    replay: ReplayGame
    holders: list[BoardHolder]
    sides: list[BoardSide]


def board_plays(*, games: QuerySet[Game]) -> list[BoardPlay]:
    """The finished plays of one board side by side: ``games`` are the games dealt from one deal (the
    plays of a duplicate match's board, or the tables of a duplicate tournament that held the same
    cards), each with who held which hand, the tricks, the score and the replay's steps.

    Only games of finished matches are shown (docs/RULES.md 9: a deal is secret until its match is over);
    a caller whose board is still being played elsewhere with these cards must wait until every play is
    over. Three queries however many plays (games with their matches, the matches' seats, the actions of
    the games whose replay is not cached); ValueError when the games are not dealt from one deal.
    """
    rows = list(
        games.filter(status=Game.Status.FINISHED, match__status=Match.Status.FINISHED)
        .select_related("match")
        .defer("decks")
        .prefetch_related(
            Prefetch("match__seats", queryset=Seat.objects.select_related("player").order_by("index"))
        )
        .order_by("match_id", "number")
    )
    if len({(g.seed, g.dealer) for g in rows}) > 1:
        raise ValueError("the games of a board are dealt from one seed and dealer")
    replays = _game_replays(rows)
    plays = []
    for game in rows:
        replay = replays[game.pk]
        labels = seat_labels(game.match)
        dealt, last = replay.steps[0], replay.steps[-1]
        holders = [
            BoardHolder(
                seat=seat,
                match_seat=game.match_seat(seat),
                name=labels[game.match_seat(seat)]["name"],
                handle=labels[game.match_seat(seat)]["handle"],
                hand=list(cards),
                tricks=last["tricks_won"][seat],
            )
            for seat, cards in enumerate(dealt["hands"])
        ]
        scores = (game.result or {}).get("scores") or []
        expected = (game.luck or {}).get("expected") or []
        sides = [
            BoardSide(
                side=side,
                names=[h.name for h in holders if side_of(game.match, h.seat) == side],
                score=scores[side] if side < len(scores) else None,
                expected=expected[side] if side < len(expected) else None,
                versus=None,
            )
            for side in range(len(scores))
        ]
        plays.append(BoardPlay(match_id=game.match_id, replay=replay, holders=holders, sides=sides))
    return _with_versus(plays)


def board_play_items(plays: list[BoardPlay], *, tables: dict[int, str] | None = None) -> list[dict[str, Any]]:
    """The plays of a board as the board templates show them (web/_board_plays.html): each with its number,
    the ids of its replay viewer and the viewer's data, its seats named by who held them; ``tables`` names
    each play's table by its match id (a duplicate tournament's board)."""
    return [
        {
            "play": play,
            "number": n,
            "table": (tables or {}).get(play.match_id),
            "hands_total": play.replay.steps[0]["hands_total"] if play.replay.steps else 1,
            "data_id": f"play-{n}-data",
            "prefix": f"p{n}-",
            "replay": replay_whole(play.replay, names=[h.name for h in play.holders]),
        }
        for n, play in enumerate(plays, start=1)
    ]


def _with_versus(plays: list[BoardPlay]) -> list[BoardPlay]:
    """Each side's score against the average of every play of the same cards (of the same game side)."""
    if len(plays) < 2:
        return plays
    width = max(len(p.sides) for p in plays)
    averages = []
    for side in range(width):
        scores = [
            p.sides[side].score for p in plays if side < len(p.sides) and p.sides[side].score is not None
        ]
        averages.append(sum(s for s in scores if s is not None) / len(scores) if scores else None)
    out = []
    for play in plays:
        sides = [
            BoardSide(
                side=s.side,
                names=s.names,
                score=s.score,
                expected=s.expected,
                versus=None
                if s.score is None or averages[s.side] is None
                else round(s.score - (averages[s.side] or 0.0), 1),
            )
            for s in play.sides
        ]
        out.append(BoardPlay(match_id=play.match_id, replay=play.replay, holders=play.holders, sides=sides))
    return out


def _game_replays(games: list[Game]) -> dict[int, ReplayGame]:
    """Each finished game's replay, from the cache (one round trip) or replayed (one query for the actions
    of the games not cached); a finished game never changes."""
    keys = {game.pk: f"web:game-replay:v1:{game.pk}" for game in games}
    cached = cache.get_many(list(keys.values()))
    out = {pk: cached[key] for pk, key in keys.items() if key in cached}
    missing = [game for game in games if game.pk not in out]
    if missing:
        actions: dict[int, list[Action]] = {game.pk: [] for game in missing}
        rows = Action.objects.filter(game__in=[g.pk for g in missing]).order_by("game_id", "ply")
        for action in rows.only("game_id", "ply", "seat", "code"):
            actions[action.game_id].append(action)
        fresh = {game.pk: game_replay(game, match_rules(game.match), actions[game.pk]) for game in missing}
        cache.set_many({keys[pk]: replay for pk, replay in fresh.items()}, REPLAY_CACHE_SECONDS)
        out.update(fresh)
    return out


def board_numbers(match: Match) -> list[int]:
    """A duplicate match's boards with a game (prefetched games), in order."""
    return sorted({g.board for g in match.games.all() if g.board is not None})


def board_rows(match: Match) -> list[dict[str, Any]]:
    """A finished duplicate match's boards for its result: each board's number and, when the result has
    them (Tute: ``board_differences``), each match side's score difference on it. No query (prefetched
    games)."""
    if match.status != Match.Status.FINISHED:
        return []
    differences = (match.result or {}).get("board_differences") or []
    return [
        {"board": b, "differences": differences[b] if b < len(differences) else None}
        for b in board_numbers(match)
    ]


def duplicate_board_summary(*, match: Match, board: int) -> list[dict[str, Any]]:
    """The board's part of a duplicate match's result: each match side's names and its score difference
    on this board (``board_differences`` of the result, docs/RULES.md)."""
    differences = (match.result or {}).get("board_differences") or []
    if board >= len(differences):
        return []
    labels = seat_labels(match)
    side_count = 2 if match.game == Match.GameName.TUTE4 else match.num_players
    return [
        {
            "names": [labels[i]["name"] for i in range(len(labels)) if side_of(match, i) == side],
            "difference": differences[board][side],
        }
        for side in range(min(side_count, len(differences[board])))
    ]


def pocha_board_summary(*, match: Match, board: int, plays: list[BoardPlay]) -> list[dict[str, Any]]:
    """A duplicate Pocha board compared player by player: each player held every seat's cards once, and is
    set against everyone else who held the same cards. One row per player: what it scored with each hand
    (game seat) of the board and the matchpoints it took there (2 per other holder outscored, 1 per tie),
    its matchpoints on the board, and its score difference on the board as the match result has it
    (``board_differences``: the score minus the mean of the others' on the same cards, summed over the
    hands; docs/TOURNAMENTS.md). No query (``plays`` from ``board_plays``)."""
    n = match.num_players
    held: dict[int, list[tuple[int, int]]] = {}  # game seat: (match seat, score) of each holder
    for play in plays:
        for side in play.sides[:n]:
            if side.score is not None:
                held.setdefault(side.side, []).append((play.holders[side.side].match_seat, side.score))
    differences = (match.result or {}).get("board_differences") or []
    row = differences[board] if board < len(differences) else []
    labels = seat_labels(match)
    out = []
    for seat in range(n):
        hands: list[dict[str, int] | None] = []
        for hand in range(n):
            mine = [score for who, score in held.get(hand, []) if who == seat]
            others = [score for who, score in held.get(hand, []) if who != seat]
            if not mine:
                hands.append(None)
                continue
            points = sum(2 if mine[0] > o else 1 if mine[0] == o else 0 for o in others)
            hands.append({"score": mine[0], "matchpoints": points})
        out.append(
            {
                "names": [labels[seat]["name"]],
                "hands": hands,
                "matchpoints": sum(h["matchpoints"] for h in hands if h is not None),
                "difference": row[seat] if seat < len(row) else None,
            }
        )
    return out


def _snapshot(
    state: State,
    public: SeatView,
    action: dict[str, Any] | None,
    *,
    tricks_before: int,
    hand_before: int,
) -> dict[str, Any]:
    # Every hand, for a game that is over: the record (seed and actions) is public by then.
    hands = [codes_of(mask) for mask in state.table.hands]
    trick_end = (len(public.tricks) > tricks_before) or (public.hand_number != hand_before)
    last = public.tricks[-1].to_dict() if public.tricks else None
    if public.hand_number != hand_before and public.hands_played:
        # A Pocha hand just ended: its last trick is in the finished hand's record.
        finished = public.hands_played[-1]
        played = finished.get("played") or []
        last = played[-1] if played else last
    return {
        "action": action,
        "trick_end": trick_end,
        "hands": hands,
        "trick": [[s, c] for s, c in public.trick],
        "last_trick": last,
        "trump": public.trump,
        "trump_card": public.trump_card,
        "faceup": public.faceup,
        "stock_size": public.stock_size,
        "hand_number": public.hand_number,
        "hands_total": public.hands_total,
        "bids": list(public.bids),
        "tricks_won": list(public.tricks_won),
        "scores": list(public.scores),
        "cantes": [{"seat": s, "suit": suit, "points": p} for s, suit, p in public.cantes],
        "result": public.result,
        # The whole scoresheet on the game's last step only (the finished page's table reads it).
        "hands_played": list(public.hands_played) if public.result is not None else None,
    }


# -- clubs and tournaments -----------------------------------------------------------------------------


def upcoming_tournaments(*, limit: int = 5) -> list[Tournament]:
    """Tournaments taking entries, the soonest start first (no start time: newest first); one query."""
    qs = tournaments_list(status=Tournament.Status.REGISTRATION)
    return list(qs.order_by(F("starts_at").asc(nulls_last=True), "-created_at", "-id")[:limit])


def running_tournaments(*, limit: int = 5) -> list[Tournament]:
    return list(tournaments_list(status=Tournament.Status.RUNNING)[:limit])


def organiser_clubs(*, player: Player) -> list[Club]:
    """The clubs ``player`` organises: where they may create and run tournaments."""
    return list(
        Club.objects.filter(memberships__player=player, memberships__role=Membership.Role.ORGANISER).order_by(
            "name", "id"
        )
    )


def organises(*, club_id: int, player: Player | None) -> bool:
    if player is None:
        return False
    return Membership.objects.filter(club_id=club_id, player=player, role=Membership.Role.ORGANISER).exists()


def entry_of(*, tournament: Tournament, player: Player | None) -> Entrant | None:
    """The player's entry in the tournament (as its player or its partner), if any."""
    if player is None:
        return None
    return (
        Entrant.objects.filter(tournament=tournament)
        .filter(Q(player=player) | Q(partner=player))
        .exclude(status=Entrant.Status.WITHDRAWN)
        .first()
    )


@dataclass(frozen=True, slots=True)
class TournamentPage:
    entrants: list[EntrantRef]
    rounds: list[RoundRow]
    standings: list[StandingRow]
    bracket: BracketView | None
    #: Tournament match id -> the games match that plays it (to link the bracket's boxes).
    games_match: dict[int, int]


def tournament_page(*, tournament: Tournament) -> TournamentPage:
    """What a tournament's page shows: entrants, rounds with their matches, standings, the bracket."""
    rounds = rounds_with_matches(tournament=tournament)
    return TournamentPage(
        entrants=entrants_of(tournament=tournament),
        rounds=rounds,
        standings=standings_table(tournament=tournament),
        bracket=bracket_view(tournament=tournament),
        games_match={row.id: row.match_id for r in rounds for row in r.matches if row.match_id is not None},
    )


def club_tournaments(*, club: Club) -> list[Tournament]:
    return list(tournaments_list(club=club.slug))


def bracket_columns(*, bracket: BracketView, games_match: dict[int, int]) -> list[dict[str, Any]]:
    """The bracket's sections as columns of boxes, for the diagram: names, who won, the match to watch."""
    sections = []
    for section in bracket.sections:
        columns: list[dict[str, Any]] = []
        for number, slots in enumerate(section.rounds, start=1):
            boxes = []
            for slot in slots:
                sides = []
                for ref in slot.entrants:
                    sides.append(
                        {
                            "name": ref.name if ref is not None else None,
                            "seed": ref.seed if ref is not None else None,
                            "won": ref is not None and slot.winner == ref.id,
                        }
                    )
                boxes.append(
                    {
                        "code": slot.code,
                        "sides": sides,
                        "status": slot.status,
                        "match_id": games_match.get(slot.tournament_match) if slot.tournament_match else None,
                    }
                )
            columns.append({"round": number, "boxes": boxes, "pairs": False})
        # A column whose boxes feed the next one two by two gets joined connectors (a line from each pair
        # to the box they feed); columns that feed one to one (losers' rounds) keep the straight ones.
        for column, after in itertools.pairwise(columns):
            column["pairs"] = len(column["boxes"]) == 2 * len(after["boxes"])
        sections.append({"section": section.section, "columns": columns})
    return sections


def club_choices() -> list[tuple[str, str]]:
    """(slug, name) of every club, for the leaderboard's filter; one query."""
    return list(Club.objects.order_by("name", "id").values_list("slug", "name"))


def check_in_open(*, tournament: Tournament) -> bool:
    """Whether the tournament's check-in window is open now (to offer the button; the service decides)."""
    opens, closes = tournament.check_in_opens_at, tournament.check_in_closes_at
    if tournament.status != Tournament.Status.REGISTRATION or opens is None or closes is None:
        return False
    return opens <= timezone.now() < closes


def tournament_of_match(*, match: Match) -> TournamentMatch | None:
    """The tournament pairing a games match plays, if any (one query)."""
    return TournamentMatch.objects.filter(match=match).select_related("tournament").first()


def clubs_of(*, player: Player) -> list[Club]:
    """The clubs the player belongs to (one query)."""
    return list(Club.objects.filter(memberships__player=player).order_by("name", "id"))


def tournament_corrections(*, tournament: Tournament) -> list[Correction]:
    """The tournament's corrected results, oldest first, with who made them (one query)."""
    return list(corrections_of(tournament=tournament).order_by("created_at", "id"))
