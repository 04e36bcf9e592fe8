"""Reads for the website's pages. Writes go through the apps' services; nothing here changes a row.

Lists fetch what they show in a fixed number of queries (tests/web asserts the counts): seats and their
players are prefetched, ratings come with their players joined.
"""

from __future__ import annotations

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
from games.selectors import matches_list
from games.states import match_rules
from ratings.models import Pool, Rating
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

#: Pools in the order the website lists them.
POOLS: tuple[str, ...] = tuple(Pool.values)
BOTS_FILTERS = ("include", "exclude", "only")
REPLAY_CACHE_SECONDS = 24 * 3600


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
    return f"house bot: {rating.house_bot}"


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


def seat_labels(match: Match) -> list[dict[str, Any]]:
    """Per seat: the name to show, the player's handle (or None) and whether a bot plays it."""
    out = []
    for seat in match.seats.all():
        if seat.player is not None:
            out.append(
                {"name": seat.player.display_name, "handle": seat.player.handle, "bot": seat.player.is_bot}
            )
        elif seat.bot_level:
            out.append({"name": f"bot:{seat.bot_level}", "handle": None, "bot": True})
        else:
            out.append({"name": "—", "handle": None, "bot": False})
    return out


def match_outcome(match: Match) -> list[dict[str, Any]]:
    """A finished match's sides: their seats' names, games won, the last game's score, who won.

    Tute 4 has two sides (seats 0+2 and 1+3); the other games one side a seat. Reads the prefetched seats
    and games only.
    """
    if match.result is None:
        return []
    labels = seat_labels(match)
    side_count = 2 if match.game == Match.GameName.TUTE4 else match.num_players
    games = [g for g in match.games.all() if g.result]
    last_scores = games[-1].result.get("scores", []) if games and games[-1].result else []
    won = match.result.get("games_won", [0] * side_count)
    winners = set(match.result.get("winners", []))
    return [
        {
            "names": [labels[i]["name"] for i in range(len(labels)) if (i % side_count) == side],
            "games_won": won[side] if side < len(won) else 0,
            "score": last_scores[side] if side < len(last_scores) else None,
            "winner": side in winners,
        }
        for side in range(side_count)
    ]


@dataclass(frozen=True, slots=True)
class ReplayGame:
    number: int
    result: dict[str, Any] | None
    steps: list[dict[str, Any]]


def match_replay(*, match: Match) -> list[ReplayGame]:
    """Every game of a finished match, step by step, with every seat's hand: the replay viewer's data.

    Only for finished matches: until then the deals are secret (docs/RULES.md 9). Two queries: the games and
    the actions; the engine replays each game from its seed.
    """
    if match.status != Match.Status.FINISHED:
        return []
    # A finished match never changes: its replay is computed once per cache.
    key = f"web:replay:{match.pk}:{match.finished_at.isoformat() if match.finished_at else ''}"
    cached = cache.get(key)
    if cached is not None:
        return list(cached)
    replay = _replay(match)
    cache.set(key, replay, REPLAY_CACHE_SECONDS)
    return replay


def _replay(match: Match) -> list[ReplayGame]:
    games = list(match.games.all())
    actions: dict[int, list[Action]] = {game.pk: [] for game in games}
    for action in Action.objects.filter(match=match).order_by("ply").only("game_id", "ply", "seat", "code"):
        actions[action.game_id].append(action)
    rules = match_rules(match)
    out = []
    for game in games:
        state = State.new(rules, dealer=game.dealer, seed=game.seed)
        public = state.view(None)
        steps = [_snapshot(state, public, None, tricks_before=0, hand_before=0)]
        for action in actions[game.pk]:
            state = state.apply(action.code)
            after = state.view(None)
            steps.append(
                _snapshot(
                    state,
                    after,
                    {"seat": action.seat, "code": action.code},
                    tricks_before=len(public.tricks),
                    hand_before=public.hand_number,
                )
            )
            public = after
        out.append(ReplayGame(number=game.number, result=game.result, steps=steps))
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
        columns = []
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
            columns.append({"round": number, "boxes": boxes})
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
