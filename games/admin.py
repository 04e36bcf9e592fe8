"""Admin screens for games: players, API tokens, matches with their seats and games, the action log.

The services are the only writers of matches, seats, games and actions, so their screens are read-only
(staff may still abort a match, through the service). A token is never shown: only its prefix and digest
exist. A game's seed and decks are shown once the game is over, as the record API does.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from games.models import Action, ApiToken, Board, Game, Match, Player, Seat
from tute_site.exceptions import ApplicationError

SECRET_UNTIL_OVER = "(secret until the game is over)"


class ReadOnlyMixin:
    """Rows written only by the services: viewable, never added or edited here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("handle", "display_name", "is_bot", "owner", "auto_accept", "user", "created_at")
    list_filter = ("is_bot", "auto_accept")
    search_fields = ("handle", "display_name", "user__username", "owner__username")
    list_select_related = ("user", "owner")
    raw_id_fields = ("user", "owner")
    readonly_fields = ("created_at",)
    ordering = ("handle",)


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens can be looked at and revoked (deleted); they are made only through the API, shown once."""

    list_display = ("prefix", "user", "created_at", "last_used_at")
    search_fields = ("prefix", "user__username")
    list_select_related = ("user",)
    raw_id_fields = ("user",)
    readonly_fields = ("user", "prefix", "digest", "created_at", "last_used_at")
    fields = readonly_fields
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ApiToken | None = None) -> bool:
        return False


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    model = Seat
    fields = ("index", "player", "bot_level", "accepted", "decline_reason", "timeouts", "client_seed")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def get_queryset(self, request: HttpRequest) -> QuerySet[Seat]:
        return super().get_queryset(request).select_related("player")


class GameInline(ReadOnlyMixin, admin.TabularInline):
    model = Game
    fields = ("number", "status", "dealer", "first_ply", "shown_seed", "result", "started_at", "finished_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    @admin.display(description="seed")
    def shown_seed(self, game: Game) -> str:
        return game.seed if game.status != Game.Status.IN_PROGRESS else SECRET_UNTIL_OVER


@admin.register(Match)
class MatchAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = (
        "id",
        "game",
        "num_players",
        "format",
        "format_target",
        "status",
        "ply",
        "rated",
        "created_by",
        "created_at",
        "finished_at",
    )
    list_filter = ("status", "game", "format", "rated")
    search_fields = ("=id", "seats__player__handle", "created_by__username")
    list_select_related = ("created_by",)
    raw_id_fields = ("created_by",)
    date_hierarchy = "created_at"
    readonly_fields = (
        "game",
        "num_players",
        "options",
        "rules_version",
        "format",
        "format_target",
        "status",
        "rated",
        "created_by",
        "created_at",
        "started_at",
        "finished_at",
        "ply",
        "result",
        "finish_reason",
        "human_move_seconds",
        "bot_move_seconds",
        "max_timeouts",
        "turn_seat",
        "turn_deadline",
        "seed_sha256",
        "next_seed_sha256",
        "action_log",
    )
    exclude = ("next_server_seed",)  # secret until the game it deals is over
    inlines = (SeatInline, GameInline)
    actions = ("abort_matches",)

    @admin.display(description="actions")
    def action_log(self, match: Match) -> str:
        url = reverse("admin:games_action_changelist") + f"?match__id__exact={match.pk}"
        return format_html('<a href="{}">{} actions</a>', url, match.ply)

    @admin.action(description="Abort the selected matches (never rated, no result)")
    def abort_matches(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        from games.services import match_abort, player_for_user

        by = player_for_user(user=request.user)  # type: ignore[arg-type]
        aborted = 0
        for match in queryset.filter(status__in=[Match.Status.OPEN, Match.Status.IN_PROGRESS]):
            try:
                match_abort(match_id=match.pk, by=by)
            except ApplicationError as exc:
                self.message_user(request, f"Match {match.pk}: {exc}", messages.WARNING)
            else:
                aborted += 1
        self.message_user(request, f"Aborted {aborted} match(es).", messages.SUCCESS)


@admin.register(Game)
class GameAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "match", "number", "status", "dealer", "first_ply", "started_at", "finished_at")
    list_filter = ("status", "match__game")
    search_fields = ("=match__id",)
    list_select_related = ("match",)
    raw_id_fields = ("match",)
    fields = (
        "match",
        "number",
        "status",
        "dealer",
        "first_ply",
        "shown_seed",
        "shown_decks",
        "result",
        "started_at",
        "finished_at",
    )
    readonly_fields = fields

    @admin.display(description="seed")
    def shown_seed(self, game: Game) -> str:
        return game.seed if game.status != Game.Status.IN_PROGRESS else SECRET_UNTIL_OVER

    @admin.display(description="decks")
    def shown_decks(self, game: Game) -> str:
        if game.status == Game.Status.IN_PROGRESS:
            return SECRET_UNTIL_OVER
        return "\n".join(" ".join(deck) for deck in game.decks)


@admin.register(Action)
class ActionAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """The action log, one row per ply; filter it by match with ?match__id__exact=<id>."""

    list_display = ("match", "ply", "game", "seat", "code", "kind", "player", "created_at")
    list_filter = ("kind", "match__game")
    search_fields = ("=match__id", "code", "player__handle")
    list_select_related = ("match", "game", "player")
    raw_id_fields = ("match", "game", "player")
    readonly_fields = (
        "match",
        "game",
        "ply",
        "seat",
        "code",
        "kind",
        "player",
        "idempotency_key",
        "created_at",
    )
    ordering = ("match", "ply")

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the log is what a match replays from


@admin.register(Board)
class BoardAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Boards are dealt by the services; their seeds and cards stay hidden here until revealed."""

    list_display = ("id", "game", "num_players", "dealer", "seed_sha256", "created_at", "revealed_at")
    list_filter = ("game",)
    fields = ("game", "num_players", "options", "dealer", "seed_sha256", "shown_seed", "revealed_at")
    readonly_fields = fields

    @admin.display(description="seed")
    def shown_seed(self, board: Board) -> str:
        return board.seed if board.is_revealed else SECRET_UNTIL_OVER
