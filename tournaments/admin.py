"""Admin screens for club organisers: clubs and their members, tournaments with their entrants, rounds,
matches (linked to the games match) and the corrections log.

Clubs and memberships are plain data and are edited here. Tournaments, entrants, rounds, matches and
corrections are written by the services only, so their screens are read-only; the tournament list has
actions that go through the services (start, the next round). A staff member who is not a superuser
sees the clubs they organise and those clubs' tournaments only.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from tournaments.models import Club, Correction, Entrant, Membership, Round, Slot, Tournament, TournamentMatch
from tournaments.services import tournament_advance, tournament_start
from tute_site.exceptions import ApplicationError


def organised_clubs(request: HttpRequest) -> Q:
    """The clubs the signed-in staff member organises (every club for a superuser)."""
    user = request.user
    if user.is_superuser:
        return Q()
    return Q(memberships__player__user=user, memberships__role=Membership.Role.ORGANISER)


class ReadOnlyMixin:
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    raw_id_fields = ("player",)
    fields = ("player", "role", "joined_at")
    readonly_fields = ("joined_at",)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "created_at")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [MembershipInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Club]:
        return super().get_queryset(request).filter(organised_clubs(request)).distinct()


class EntrantInline(ReadOnlyMixin, admin.TabularInline):
    model = Entrant
    extra = 0
    fields = ("seed", "player", "house_bot", "partner", "partner_bot", "club", "status", "registered_at")
    readonly_fields = fields
    ordering = ("seed", "registered_at")


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("name", "club", "game", "format", "status", "current_round", "starts_at", "created_at")
    list_filter = ("status", "game", "format")
    search_fields = ("name", "club__name", "club__slug")
    list_select_related = ("club",)
    inlines = [EntrantInline]
    actions = ["start", "next_round"]
    exclude = ("passcode_hash",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        clubs = Club.objects.filter(organised_clubs(request))
        return super().get_queryset(request).filter(club__in=clubs)

    @admin.action(description="Start the selected tournaments (seeding, round 1)")
    def start(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        player = getattr(request.user, "player", None)
        for tournament in queryset:
            try:
                tournament_start(tournament_id=tournament.pk, by=player)
            except ApplicationError as exc:
                self.message_user(request, f"{tournament}: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, f"{tournament}: started.")

    @admin.action(description="Generate the next round where the current one is complete")
    def next_round(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            done = tournament_advance(tournament_id=tournament.pk, after_round=tournament.current_round)
            self.message_user(request, f"{tournament}: {'advanced' if done else 'nothing due'}.")


class TournamentMatchInline(ReadOnlyMixin, admin.TabularInline):
    model = TournamentMatch
    extra = 0
    fields = ("code", "board", "kind", "status", "games_match", "winner", "points", "forfeit")
    readonly_fields = fields
    show_change_link = True

    @admin.display(description="games match")
    def games_match(self, tm: TournamentMatch) -> str:
        if tm.match_id is None:
            return "-"
        return format_html(
            '<a href="{}">{}</a>', reverse("admin:games_match_change", args=[tm.match_id]), tm.match_id
        )


@admin.register(Round)
class RoundAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("tournament", "number", "status", "started_at", "completed_at")
    list_filter = ("status",)
    list_select_related = ("tournament",)
    inlines = [TournamentMatchInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Round]:
        clubs = Club.objects.filter(organised_clubs(request))
        return super().get_queryset(request).filter(tournament__club__in=clubs)


class SlotInline(ReadOnlyMixin, admin.TabularInline):
    model = Slot
    extra = 0
    fields = ("position", "entrant")
    readonly_fields = fields


@admin.register(TournamentMatch)
class TournamentMatchAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("code", "tournament", "round", "kind", "status", "match", "winner", "forfeit")
    list_filter = ("status", "kind", "forfeit")
    search_fields = ("code", "tournament__name")
    list_select_related = ("tournament", "round", "winner__player", "match")
    inlines = [SlotInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[TournamentMatch]:
        clubs = Club.objects.filter(organised_clubs(request))
        return super().get_queryset(request).filter(tournament__club__in=clubs)


@admin.register(Correction)
class CorrectionAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("tournament", "tournament_match", "by", "reason", "created_at")
    list_select_related = ("tournament", "tournament_match", "by")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Correction]:
        clubs = Club.objects.filter(organised_clubs(request))
        return super().get_queryset(request).filter(tournament__club__in=clubs)
