"""Signals the games app sends, so that other apps can react without games importing them.

games never imports ratings, tournaments or the ladder (tests/test_layering.py checks it): they connect
receivers to these signals in their AppConfig.ready().
"""

from django.dispatch import Signal

# Sent once per match, after the transaction that finished it has committed
# (transaction.on_commit in the finishing service). Keyword arguments: `match`, the finished Match.
# Receivers run in the sender's process; one that does slow work queues a Celery task instead.
match_finished = Signal()

# Sent after the transaction that replaced the result of a finished match played over the board
# (``match_record_change``) has committed. Keyword arguments: `match`. Ratings recompute from it.
match_result_changed = Signal()

# Sent when a seat that a player (a person or a bot account) holds is to act, inside the transaction
# that made the turn (the match's turn fields are saved). Keyword arguments: `match`, the Match at its
# new ply, and `seat`, the Seat to act (with its player, and the relations named in
# games.selectors.SEAT_PLAYER_RELATIONS). The ladder queues a push bot's POST here.
turn_started = Signal()

# Sent after the transaction of an action the engine refused has rolled back, before the refusal is
# raised. Keyword arguments: `match_id`, `player` (who sent it), `code`, `ply` and `answer` (the error
# body the caller gets). The ladder records it for a bot account's author, validation and stream.
action_refused = Signal()

# Sent inside the transaction of a move the server plays for a seat whose time ran out, before the move
# is applied. Keyword arguments: `context` (the MatchContext as it was at the turn), `seat` (its
# `timeouts` already counted), `ply` and `code` (the move to be played for it).
turn_timed_out = Signal()

# Sent when a bot account shows it is online: its event stream is open (every few seconds) or it polls
# its turns. Keyword argument: `player`. Receivers keep it cheap: it comes with every poll.
bot_present = Signal()

# Sent by a bot account's event stream at each look at the database, before the match events. Keyword
# arguments: `player` and `memory` (the connection's games.streams.StreamMemory: `connected_at`, and
# `notices`, a dict where each receiver keeps under a key of its own what it has told already). Each
# receiver returns a list of events for the stream, in order; they come first, as they explain the turns
# and finishes after them.
bot_stream_looked = Signal()
