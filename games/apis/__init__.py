"""The games API under /api/v1/: one thin view per operation, by operation group; services do the work.

``matches`` (create, list, join, leave, resign, abort, challenges, client seeds), ``play`` (a seat's view,
actions, records, a bot's turns, the event stream), ``accounts`` (who is calling, tokens), ``boards``
(duplicate boards); ``outputs`` holds the shapes they share.
"""
