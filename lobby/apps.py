from django.apps import AppConfig


class LobbyConfig(AppConfig):
    """People finding people to play: quick-pairing seeks, the lobby of open tables and who is online."""

    name = "lobby"
    default_auto_field = "django.db.models.BigAutoField"
