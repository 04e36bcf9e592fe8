"""Signals the games app sends, so that other apps can react without games importing them.

games never imports ratings or tournaments (tests/test_layering.py checks it): they connect receivers
to these signals in their AppConfig.ready().
"""

from django.dispatch import Signal

# Sent once per match, after the transaction that finished it has committed
# (transaction.on_commit in the finishing service). Keyword arguments: `match`, the finished Match.
# Receivers run in the sender's process; one that does slow work queues a Celery task instead.
match_finished = Signal()
