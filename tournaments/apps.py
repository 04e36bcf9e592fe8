from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from games.signals import match_finished
        from tournaments.receivers import queue_tournament_result

        match_finished.connect(queue_tournament_result, dispatch_uid="tournaments.queue_tournament_result")
