from django.apps import AppConfig


class WebConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "web"
    verbose_name = "Website"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from web.receivers import sign_in_failures_clear

        user_logged_in.connect(sign_in_failures_clear, dispatch_uid="web.sign_in_failures_clear")
