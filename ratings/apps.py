from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"

    def ready(self) -> None:
        from games.signals import match_finished
        from ratings.receivers import queue_match_ratings

        match_finished.connect(queue_match_ratings, dispatch_uid="ratings.queue_match_ratings")
