"""`manage.py demo_data`: the data a local `make run` starts with. Safe to run again; DEBUG only."""

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo"


class Command(BaseCommand):
    help = "Create demo data for local development: a superuser demo/demo. Refuses unless DEBUG is on."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError(
                "demo_data creates a superuser with a known password, so it runs only with DEBUG on "
                "(DJANGO_DEBUG=1). It is for local development, never for a deployment."
            )
        with transaction.atomic():
            self._demo_superuser()

    def _demo_superuser(self) -> None:
        user_model = get_user_model()
        user, created = user_model._default_manager.get_or_create(
            username=DEMO_USERNAME,
            defaults={"is_staff": True, "is_superuser": True, "email": "demo@example.com"},
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save(update_fields=["password"])
            self.stdout.write(
                self.style.SUCCESS(f"Created superuser {DEMO_USERNAME!r} with password {DEMO_PASSWORD!r}.")
            )
        else:
            self.stdout.write(f"Superuser {DEMO_USERNAME!r} already exists; left unchanged.")
