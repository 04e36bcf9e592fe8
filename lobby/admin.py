from django.contrib import admin

from lobby.models import Seek


@admin.register(Seek)
class SeekAdmin(admin.ModelAdmin):
    list_display = ("id", "player", "game", "num_players", "rated", "status", "match", "created_at")
    list_filter = ("game", "status")
    raw_id_fields = ("player", "match")
