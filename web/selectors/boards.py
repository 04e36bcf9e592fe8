"""Duplicate boards: the plays of one deal side by side (a duplicate match's board, a duplicate
tournament's board at every table) and a board's part of a duplicate match's result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Prefetch, QuerySet

from games.models import Action, Game, Match, Seat
from games.states import match_rules
from web.selectors.matches import seat_labels, side_of
from web.selectors.replay import REPLAY_CACHE_SECONDS, ReplayGame, game_replay, replay_whole


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
    side_count = match_rules(match).sides
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
