from django.apps import AppConfig


class MatchmakingConfig(AppConfig):
    """The bot ladder's matchmaker, bot leaderboard and authors' status pages (docs/BOTS.md)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "matchmaking"

    def ready(self) -> None:
        from games.signals import match_finished
        from matchmaking.receivers import queue_ladder_match_finished

        match_finished.connect(queue_ladder_match_finished, dispatch_uid="matchmaking.ladder_match_finished")
