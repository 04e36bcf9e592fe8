"""``python manage.py ratings_recompute``: rebuild every rating from the match history."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from ratings.services import ratings_recompute


class Command(BaseCommand):
    help = "Rebuild every rating and rating change from finished rated matches, in finishing order."

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        matches, changes = ratings_recompute()
        seconds = time.perf_counter() - started
        self.stdout.write(f"rated {matches} matches, wrote {changes} rating changes in {seconds:.1f} s")
