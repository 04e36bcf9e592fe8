"""The games API's shared shapes: the match as the API shows it, the rules options and the client seed fields."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.urls import reverse
from drf_spectacular.utils import (
    extend_schema_field,
    inline_serializer,
)
from rest_framework import serializers

from games.engine.rules import (
    FIRST_LEADS,
    FLAG_NAMES,
    POCHA_SEQUENCES,
    STOCK_DUTIES,
    TUTE_DECLARATIONS,
    Rules,
)
from games.models import Match, Seat
from games.selectors import (
    away_seats,
    match_detail,
)


def found(match_id: int) -> Match:
    return match_detail(match_id=match_id)


class PlayerOutput(serializers.Serializer):
    handle = serializers.CharField()
    display_name = serializers.CharField()
    is_bot = serializers.BooleanField()


class SeatOutput(serializers.Serializer):
    index = serializers.IntegerField()
    player = PlayerOutput(allow_null=True)
    house_bot = serializers.CharField(source="bot_level", allow_blank=True)
    is_bot = serializers.SerializerMethodField()
    accepted = serializers.BooleanField(help_text="False while a challenged player has not accepted.")
    decline_reason = serializers.CharField(allow_blank=True)
    timeouts = serializers.IntegerField()
    client_seed = serializers.CharField(
        allow_blank=True,
        help_text="The seat's client seed, mixed into each deal (docs/RULES.md 11); '' if none.",
    )

    away = serializers.SerializerMethodField(
        help_text="The seat's person has not been seen for TUTE_AWAY_SECONDS (no page, poll or stream)."
    )

    def get_is_bot(self, seat: Seat) -> bool:
        return bool(seat.bot_level) or bool(seat.player and seat.player.is_bot)

    def get_away(self, seat: Seat) -> bool:
        return bool(away_seats([seat]))


class MatchOutput(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    players = serializers.IntegerField(source="num_players")
    options = serializers.JSONField()
    rules_version = serializers.CharField()
    format = serializers.CharField()
    games = serializers.IntegerField(source="format_target")
    rated = serializers.BooleanField()
    status = serializers.CharField()
    ply = serializers.IntegerField()
    seats = SeatOutput(many=True)
    result = serializers.JSONField(allow_null=True)
    finish_reason = serializers.CharField(allow_blank=True)
    turn_seat = serializers.IntegerField(allow_null=True)
    turn_deadline = serializers.DateTimeField(allow_null=True)
    human_move_seconds = serializers.IntegerField()
    bot_move_seconds = serializers.IntegerField()
    max_timeouts = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    seed_sha256 = serializers.SerializerMethodField(
        help_text="docs/RULES.md 11: SHA-256 of the current game's server seed (while the match is open: of the "
        "first game's), published before the game's first action. The seed is revealed in the record."
    )
    next_seed_sha256 = serializers.CharField(
        allow_blank=True, help_text="The commitment to the server seed of the next game the match would deal."
    )
    private = serializers.BooleanField(help_text="Not listed while open; joined with its invite code.")
    invite_code = serializers.SerializerMethodField(
        help_text="A private table's invite code (POST .../join/ with it; the link /join/<code>/), shown to "
        "its creator only; null otherwise."
    )
    invite_url = serializers.SerializerMethodField(help_text="The invite link's path, for the creator.")
    expires_at = serializers.DateTimeField(
        allow_null=True,
        help_text="While open: it is called off then (finish_reason expired) unless it starts.",
    )
    rematch_of = serializers.IntegerField(source="rematch_of_id", allow_null=True)
    hints_used = serializers.BooleanField(help_text="A practice game where its person asked for hints.")
    over_the_board = serializers.BooleanField(
        help_text="Played with real cards at a club's table: its result was entered (no record to replay)."
    )

    def _shown_code(self, match: Match) -> str | None:
        viewer = self.context.get("viewer")
        if viewer is None or match.created_by_id != viewer or not match.invite_code:
            return None
        return match.invite_code

    def get_invite_code(self, match: Match) -> str | None:
        return self._shown_code(match)

    def get_invite_url(self, match: Match) -> str | None:
        code = self._shown_code(match)
        return reverse("web:join", args=[code]) if code else None

    def get_seed_sha256(self, match: Match) -> str | None:
        return match.seed_sha256 or match.next_seed_sha256 or None


CLIENT_SEED_HELP = (
    "Optional: 1 to 64 printable ASCII characters without ':', mixed into every deal of the match with the "
    "server's committed seed (docs/RULES.md 11); it can be changed before a game's first action."
)


def rules_options_schema() -> dict[str, Any]:
    """The rules flags (docs/RULES.md) as a JSON schema: each flag's type or choices, no other key. What
    one flag allows with another, or with the player count (a Pocha sequence's hand sizes), the rules
    check: invalid_rules."""
    choices = {"stock_duty": STOCK_DUTIES, "tute_declaration": TUTE_DECLARATIONS, "first_lead": FIRST_LEADS}
    properties: dict[str, Any] = {
        "pocha_sequence": {
            "oneOf": [
                {"type": "string", "enum": list(POCHA_SEQUENCES)},
                {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1},
            ]
        },
        "pocha_max_cards": {"type": "integer", "minimum": 1, "nullable": True},
    }
    for flag in dataclasses.fields(Rules):
        if flag.name in choices:
            properties[flag.name] = {"type": "string", "enum": list(choices[flag.name])}
        elif flag.name in FLAG_NAMES and isinstance(flag.default, bool):
            properties[flag.name] = {"type": "boolean"}
    assert properties.keys() == FLAG_NAMES, "a rules flag the schema does not describe"
    return {"type": "object", "properties": properties, "additionalProperties": False}


@extend_schema_field(rules_options_schema())
class RulesOptionsField(serializers.DictField):
    """Rules flags: their names and types in the schema; the engine validates them (invalid_rules)."""


#: Printable ASCII without ':' (space to 9, ; to ~), as games.engine.fair checks; the schema says it, the
#: service refuses anything else with invalid_client_seed.
CLIENT_SEED_PATTERN = "^[ -9;-~]{1,64}$"


@extend_schema_field({"type": "string", "pattern": CLIENT_SEED_PATTERN, "nullable": True})
class ClientSeedField(serializers.CharField):
    """A client seed, or null for none. A blank one goes to the service, which says why it is refused
    (invalid_client_seed), as for any other bad seed; not allow_blank, which the schema would show."""

    def run_validation(self, data: Any = serializers.empty) -> Any:
        return "" if data == "" else super().run_validation(data)


@extend_schema_field({"type": "string", "pattern": CLIENT_SEED_PATTERN})
class RequiredClientSeedField(ClientSeedField):
    """A client seed (the service refuses a blank one with invalid_client_seed)."""


def client_seed_field() -> serializers.CharField:
    return ClientSeedField(required=False, allow_null=True, trim_whitespace=False, help_text=CLIENT_SEED_HELP)


ViewOutput = inline_serializer(
    name="SeatViewEnvelope",
    fields={
        "match": serializers.IntegerField(),
        "status": serializers.CharField(),
        "seat": serializers.IntegerField(allow_null=True),
        "game_number": serializers.IntegerField(allow_null=True),
        "to_act": serializers.IntegerField(allow_null=True),
        "legal": serializers.ListField(
            child=serializers.CharField(),
            allow_null=True,
            help_text="Always sent: the caller's legal action codes when it is the caller's turn, else null.",
        ),
        "ply": serializers.IntegerField(
            help_text="Actions of the whole match so far: the ply an action is sent with. "
            "(view.game_ply counts only the current game's.)"
        ),
        "view": serializers.JSONField(
            allow_null=True, help_text="docs/RULES.md, what a seat may know: the engine's seat view."
        ),
        "seed_sha256": serializers.CharField(
            allow_null=True, help_text="docs/RULES.md 11: the commitment to this game's server seed."
        ),
        "client_seeds": serializers.ListField(
            child=serializers.CharField(allow_blank=True), help_text="The game's client seeds by seat."
        ),
    },
)


def match_out(match: Match, *, viewer: int | None = None) -> dict[str, Any]:
    """The match as the database has it now (the service that changed it has committed); ``viewer`` (a
    user id) sees the invite code of a table it created."""
    return MatchOutput(found(match.pk), context={"viewer": viewer}).data
