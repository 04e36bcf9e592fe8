"""The one lock every ratings writer takes first: ratings change one transaction at a time."""

from __future__ import annotations

from ratings.models import RatingsWriter


def ratings_writer_lock() -> None:
    """Take the writers' lock until the current transaction ends (call it inside ``atomic``).

    The row is created on first use; two first uses at once both end up locking the same row
    (``get_or_create`` catches the other's insert and reads it).
    """
    RatingsWriter.objects.select_for_update().get_or_create(id=1)
