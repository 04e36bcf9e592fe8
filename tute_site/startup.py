"""Work a server process does once, after Django is set up and before it serves."""

from __future__ import annotations

import gc


def freeze_startup_objects(*, load_urls: bool) -> int:
    """Move what start-up built into the garbage collector's permanent generation; how many objects.

    Modules, models, URL patterns, views and serializers live as long as the process, yet every full
    collection walked all of them (about 90,000 objects): a 55 ms pause of every thread of a gunicorn
    worker, which made the API's p99 (docs/PERFORMANCE.md, "API"). Frozen, a full collection walks only
    what requests made since, a few ms. ``load_urls`` imports every view first, which Django otherwise
    does on the first request.
    """
    if load_urls:
        from django.urls import get_resolver

        get_resolver().url_patterns  # noqa: B018 (the import is the point)
    gc.collect()  # what start-up left as garbage is not frozen with the rest
    gc.freeze()
    return gc.get_freeze_count()
