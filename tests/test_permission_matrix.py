"""Who may do what: every write endpoint of the API against every kind of caller.

The callers: the resource's owner (the match's creator or player, the bot's owner, the token's owner,
the club's current organiser), another person, the owner's own bot and another person's bot (each with its
own token), an anonymous client, the organiser of another club, and a demoted organiser (who created
the tournaments while an organiser, entered one of them, and is now a plain member). Every caller not
allowed gets a 4xx and changes nothing (every row of every table compared); the owner's request is
then made and succeeds, so each refusal is a refusal of a request that would have worked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import ApiToken, Match, Player
from games.services import SeatSpec, match_create, match_spec
from lobby.services import seek_create
from tests.factories import BotPlayerFactory, PlayerFactory, token_for
from tournaments.models import Entrant, Membership, TournamentMatch
from tournaments.services import (
    Settings,
    club_create,
    entrant_bot_fill,
    membership_add,
    no_show,
    register,
    tournament_create,
    tournament_start,
)

pytestmark = pytest.mark.django_db

ACTORS = ("owner", "other", "their_bot", "bot_token", "anonymous", "other_organiser", "demoted")
PEOPLE = {"owner", "other", "other_organiser", "demoted"}


@dataclass
class World:
    players: dict[str, Player] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)
    ids: dict[str, Any] = field(default_factory=dict)

    def client(self, actor: str) -> APIClient:
        client = APIClient()
        if actor != "anonymous":
            client.credentials(HTTP_AUTHORIZATION=f"Token {self.tokens[actor]}")
        return client


def person(handle: str) -> Player:
    player: Player = PlayerFactory(handle=handle)
    return player


@pytest.fixture
def world() -> World:
    w = World()
    owner, other, org, demoted, entrant = (
        person(h) for h in ("owner", "other", "orga-other", "demoted", "entrant")
    )
    their_bot: Player = BotPlayerFactory(handle="owners-bot", owner=owner.user)
    stranger_bot: Player = BotPlayerFactory(handle="strangers-bot", owner=other.user)
    w.players = {
        "owner": owner,
        "other": other,
        "their_bot": their_bot,
        "bot_token": stranger_bot,
        "other_organiser": org,
        "demoted": demoted,
    }
    w.tokens = {name: token_for(p) for name, p in w.players.items()}
    w.ids["owner_token"] = ApiToken.objects.filter(user=owner.user).values_list("pk", flat=True).first()

    # Clubs: the owner organises "lugo", where the demoted organiser made the tournaments before the
    # owner demoted them; the other organiser runs "ourense".
    lugo = club_create(name="Lugo", slug="lugo", by=owner)
    club_create(name="Ourense", slug="ourense", by=org)
    membership_add(club=lugo, by=owner, handle=demoted.handle, role=Membership.Role.ORGANISER)

    def tournament(name: str, **fields: Any) -> int:
        fields.setdefault("game", "tute2")
        fields.setdefault("format", "single_elim")
        return tournament_create(club=lugo, by=demoted, settings=Settings(name=name, **fields)).pk

    w.ids["open"] = tournament("Open")
    entrant_bot_fill(tournament_id=w.ids["open"], by=demoted, level="random", count=1)
    w.ids["open_bot_entrant"] = Entrant.objects.get(tournament_id=w.ids["open"]).pk
    w.ids["entrant_entry"] = register(tournament_id=w.ids["open"], player=entrant).pk
    w.ids["pairs"] = tournament("Pairs", game="tute4")
    w.ids["pairs_entry"] = register(tournament_id=w.ids["pairs"], player=entrant, partner_bot="random").pk
    now = timezone.now()
    w.ids["checkin"] = tournament(
        "Check-in", check_in_opens_at=now - timedelta(hours=1), check_in_closes_at=now + timedelta(hours=1)
    )
    register(tournament_id=w.ids["checkin"], player=owner)
    # A running tournament where the demoted organiser plays: their match (which the attack ended
    # through the games API) and another one, already recorded as a no-show (for corrections).
    running = tournament("Running", rated=True)
    register(tournament_id=running, player=demoted)
    for _ in range(3):
        register(tournament_id=running, player=PlayerFactory())
    tournament_start(tournament_id=running, by=demoted)
    w.ids["running"] = running
    # A night over the board, where the organisers enter each table's result.
    night = tournament("Night", format="round_robin", play="table")
    entrant_bot_fill(tournament_id=night, by=demoted, level="random", count=2)
    tournament_start(tournament_id=night, by=demoted)
    w.ids["night"] = night
    w.ids["night_table"] = TournamentMatch.objects.get(tournament_id=night).pk
    rows = list(TournamentMatch.objects.filter(tournament_id=running, kind="match").order_by("board"))
    theirs = next(tm for tm in rows if tm.slots.filter(entrant__player=demoted).exists())
    done = next(tm for tm in rows if tm.pk != theirs.pk)
    w.ids["their_row"], w.ids["their_match"] = theirs.pk, theirs.match_id
    w.ids["done_row"] = done.pk
    w.ids["absent_entrant"] = done.slots.order_by("position").first().entrant_id  # type: ignore[union-attr]
    w.ids["present_entrant"] = theirs.slots.exclude(entrant__player=demoted).get().entrant_id
    no_show(
        tournament_id=running, tournament_match_id=done.pk, by=demoted, entrant_id=w.ids["absent_entrant"]
    )
    membership_add(club=lugo, by=owner, handle=demoted.handle, role=Membership.Role.MEMBER)

    # Casual matches of the owner's.
    w.ids["open_match"] = match_create(spec=match_spec(created_by=owner, game="tute2")).pk
    w.ids["house_match"] = match_create(
        spec=match_spec(
            created_by=owner, game="tute2", seats=[SeatSpec(bot="random"), SeatSpec(player=owner.handle)]
        )
    ).pk  # seat 1 is the mano: the owner acts first
    w.ids["challenge"] = match_create(
        spec=match_spec(
            created_by=other,
            game="tute2",
            seats=[SeatSpec(player=other.handle), SeatSpec(player=owner.handle)],
        )
    ).pk
    w.ids["private_table"] = match_create(spec=match_spec(created_by=owner, game="tute2", private=True)).pk
    # Quick pairing: a seek of the owner's, and one of the other person's that others may answer.
    w.ids["owner_seek"] = seek_create(player=owner, game="pocha", players=3).pk
    w.ids["other_seek"] = seek_create(player=other, game="tute2").pk
    return w


def snapshot() -> dict[str, list[dict[str, Any]]]:
    """Every row of every table of the project's apps (a token's last use and a person's or a seek's last
    sight aside, which reads touch)."""
    rows = {}
    for app in ("games", "tournaments", "ratings", "lobby", "auth"):
        for model in apps.get_app_config(app).get_models():
            values = list(model.objects.order_by("pk").values())
            for row in values:
                row.pop("last_used_at", None)
                row.pop("last_seen_at", None)
                row.pop("last_login", None)
            rows[model._meta.label] = values
    return rows


@dataclass(frozen=True)
class Endpoint:
    method: str
    path: Callable[[World], str]
    body: Callable[[World], dict[str, Any]] | None
    allowed: frozenset[str]
    #: The caller whose request is made last and must succeed (the owner unless nobody may).
    succeeds: str | None = "owner"


def ep(
    method: str,
    path: Callable[[World], str],
    body: Callable[[World], dict[str, Any]] | None = None,
    allowed: set[str] | frozenset[str] = frozenset({"owner"}),
    succeeds: str | None = "owner",
) -> Endpoint:
    return Endpoint(method, path, body, frozenset(allowed), succeeds)


def t(key: str, tail: str = "") -> Callable[[World], str]:
    return lambda w: f"/api/v1/tournaments/{w.ids[key]}/{tail}"


def m(key: str, tail: str) -> Callable[[World], str]:
    return lambda w: f"/api/v1/matches/{w.ids[key]}/{tail}"


def first_legal(w: World) -> dict[str, Any]:
    view = w.client("owner").get(f"/api/v1/matches/{w.ids['house_match']}/view/").json()
    return {"action": view["legal"][0], "ply": view["ply"]}


ALL_BUT_ANONYMOUS = set(ACTORS) - {"anonymous"}

ENDPOINTS: dict[str, Endpoint] = {
    # games
    "match create": ep(
        "post", lambda w: "/api/v1/matches/", lambda w: {"game": "tute2"}, allowed=ALL_BUT_ANONYMOUS
    ),
    "match join": ep(
        "post", m("open_match", "join/"), allowed=ALL_BUT_ANONYMOUS - {"owner"}, succeeds="other"
    ),
    "match leave": ep("post", m("open_match", "leave/")),
    "match bots": ep("post", m("open_match", "bots/"), lambda w: {"bot": "random"}),
    # a private table: only its code seats anyone (nobody here has it), its creator included
    "private table join": ep("post", m("private_table", "join/"), allowed=set(), succeeds=None),
    "private table bots": ep("post", m("private_table", "bots/"), lambda w: {"bot": "rule", "seats": [1]}),
    "seek create": ep("post", lambda w: "/api/v1/seeks/", lambda w: {"game": "tute4"}, allowed=PEOPLE),
    "seek cancel": ep("delete", lambda w: f"/api/v1/seeks/{w.ids['owner_seek']}/"),
    "seek answer": ep(
        "post", lambda w: f"/api/v1/seeks/{w.ids['other_seek']}/answer/", allowed=PEOPLE - {"other"}
    ),
    "match resign": ep("post", m("house_match", "resign/")),
    "match abort": ep("post", m("house_match", "abort/")),
    "tournament match abort": ep("post", m("their_match", "abort/"), allowed=set(), succeeds=None),
    "challenge accept": ep("post", m("challenge", "accept/")),
    "challenge decline": ep("post", m("challenge", "decline/"), lambda w: {"reason": "busy"}),
    "action submit": ep("post", m("house_match", "actions/"), first_legal),
    "bot create": ep("post", lambda w: "/api/v1/bots/", lambda w: {"handle": "new-bot"}, allowed=PEOPLE),
    "bot settings": ep("patch", lambda w: "/api/v1/bots/owners-bot/", lambda w: {"auto_accept": True}),
    "bot ladder games": ep("patch", lambda w: "/api/v1/bots/owners-bot/", lambda w: {"games": ["tute2"]}),
    "bot validation": ep(
        "post", lambda w: "/api/v1/bots/owners-bot/validation/", lambda w: {"game": "pocha"}
    ),
    "bot token rotate": ep("post", lambda w: "/api/v1/bots/owners-bot/token/"),
    "token create": ep("post", lambda w: "/api/v1/me/tokens/", allowed=PEOPLE),
    "token revoke": ep("delete", lambda w: f"/api/v1/me/tokens/{w.ids['owner_token']}/"),
    # clubs and tournaments
    "club create": ep(
        "post", lambda w: "/api/v1/clubs/", lambda w: {"name": "New", "slug": "new"}, allowed=PEOPLE
    ),
    "club member add": ep("post", lambda w: "/api/v1/clubs/lugo/members/", lambda w: {"player": "other"}),
    "tournament create": ep(
        "post",
        lambda w: "/api/v1/tournaments/",
        lambda w: {"club": "lugo", "name": "New", "game": "tute2", "format": "round_robin"},
    ),
    "tournament update": ep(
        "put",
        t("open"),
        lambda w: {"club": "lugo", "name": "Renamed", "game": "tute2", "format": "round_robin"},
    ),
    "entrant rename": ep(
        "patch",
        lambda w: t("open")(w) + f"entrants/{w.ids['open_bot_entrant']}/",
        lambda w: {"name": "Robot"},
    ),
    "partner set": ep(
        "post",
        lambda w: t("pairs")(w) + f"entrants/{w.ids['pairs_entry']}/partner/",
        lambda w: {"partner_bot": "rule"},
    ),
    "register": ep("post", t("open", "register/"), allowed=ALL_BUT_ANONYMOUS),
    "invite": ep("post", t("open", "invite/"), lambda w: {"player": "other"}),
    "check-in": ep("post", t("checkin", "check-in/")),
    "withdraw": ep("post", t("open", "withdraw/"), lambda w: {"entrant": w.ids["entrant_entry"]}),
    "bot fill": ep("post", t("open", "bots/"), lambda w: {"level": "random", "count": 1}),
    "start": ep("post", t("open", "start/")),
    "cancel": ep("post", t("open", "cancel/")),
    "no-show": ep(
        "post",
        lambda w: t("running")(w) + f"matches/{w.ids['their_row']}/no-show/",
        lambda w: {"entrant": w.ids["present_entrant"]},
    ),
    "table result": ep(
        "post",
        lambda w: t("night")(w) + f"matches/{w.ids['night_table']}/result/",
        lambda w: {"winner": 0},
    ),
    "correction": ep(
        "post",
        t("running", "corrections/"),
        lambda w: {"match": w.ids["done_row"], "winner": w.ids["absent_entrant"], "reason": "wrong no-show"},
    ),
}


@pytest.mark.parametrize("name", list(ENDPOINTS))
def test_no_caller_writes_what_it_may_not(world: World, name: str) -> None:
    endpoint = ENDPOINTS[name]
    for actor in ACTORS:
        if actor in endpoint.allowed:
            continue
        # given: the whole database
        before = snapshot()
        body = endpoint.body(world) if endpoint.body else None
        # when: a caller who may not do it tries
        response = getattr(world.client(actor), endpoint.method)(endpoint.path(world), body, format="json")
        # then: refused with the error shape, and nothing changed
        assert 400 <= response.status_code < 500, (name, actor, response.status_code, response.content)
        assert set(response.json()) == {"code", "message", "detail"}, (name, actor)
        assert snapshot() == before, (name, actor)
    if endpoint.succeeds is not None:
        body = endpoint.body(world) if endpoint.body else None
        client = world.client(endpoint.succeeds)
        response = getattr(client, endpoint.method)(endpoint.path(world), body, format="json")
        assert 200 <= response.status_code < 300, (name, endpoint.succeeds, response.content)


def test_the_demoted_creator_can_no_longer_end_their_tournament_match(world: World) -> None:
    # given: the tournament's creator, seated in its match, demoted to a plain member
    match_id = world.ids["their_match"]
    # when: they abort it through the games API, then record a no-show for their opponent
    abort = world.client("demoted").post(f"/api/v1/matches/{match_id}/abort/")
    show = world.client("demoted").post(
        t("running")(world) + f"matches/{world.ids['their_row']}/no-show/",
        {"entrant": world.ids["present_entrant"]},
        format="json",
    )
    # then: both refused, the match plays on
    assert (abort.status_code, abort.json()["code"]) == (403, "managed_match")
    assert (show.status_code, show.json()["code"]) == (403, "not_organiser")
    assert Match.objects.get(pk=match_id).status == Match.Status.IN_PROGRESS
