from django.contrib import admin

from ratings.models import LevelRating, Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("subject", "pool", "rating", "rated_matches", "is_bot", "last_played_at")
    list_filter = ("pool", "is_bot")
    search_fields = ("subject", "player__handle", "partner__handle", "house_bot")
    list_select_related = ("player", "partner")
    raw_id_fields = ("player", "partner")
    readonly_fields = ("pool", "subject", "player", "partner", "house_bot", "is_bot", "rated_matches")


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ("match", "subject", "pool", "before", "delta", "after", "k", "played_at")
    list_filter = ("pool",)
    search_fields = ("subject",)
    raw_id_fields = ("match", "rating")
    list_select_related = ("match", "rating")

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False


@admin.register(LevelRating)
class LevelRatingAdmin(admin.ModelAdmin):
    list_display = ("level", "pool", "rating", "deals", "against", "share", "measured_at")
    list_filter = ("pool", "level")

    def has_add_permission(self, request: object) -> bool:
        return False  # measured by manage.py rate_levels

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False
