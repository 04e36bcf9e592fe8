from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"

    def ready(self) -> None:
        from games.signals import match_finished, match_result_changed
        from ratings.receivers import queue_match_ratings, queue_ratings_recompute

        match_finished.connect(queue_match_ratings, dispatch_uid="ratings.queue_match_ratings")
        match_result_changed.connect(queue_ratings_recompute, dispatch_uid="ratings.queue_ratings_recompute")
