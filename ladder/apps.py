from django.apps import AppConfig


class LadderConfig(AppConfig):
    """The bot ladder (docs/BOTS.md): bots' ladder profiles, validation, push bots, incidents, the
    matchmaker, the bot leaderboard and the authors' status pages. It listens to games.signals and adds
    its rated-match policy to games.policies; games never imports it."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "ladder"

    def ready(self) -> None:
        from games import signals
        from games.policies import rated_match_policy_register
        from games.selectors import seat_player_relation_add
        from ladder import receivers
        from ladder.policies import unvalidated_bots_refused

        signals.match_finished.connect(
            receivers.queue_ladder_match_finished, dispatch_uid="ladder.ladder_match_finished"
        )
        signals.turn_started.connect(receivers.queue_push_turn, dispatch_uid="ladder.queue_push_turn")
        signals.action_refused.connect(receivers.record_refusal, dispatch_uid="ladder.record_refusal")
        signals.turn_timed_out.connect(receivers.record_timeout, dispatch_uid="ladder.record_timeout")
        signals.bot_present.connect(receivers.mark_bot_seen, dispatch_uid="ladder.mark_bot_seen")
        signals.bot_stream_looked.connect(
            receivers.stream_incident_events, dispatch_uid="ladder.stream_incident_events"
        )
        seat_player_relation_add("ladder")  # a bot's profile comes with its seat: is it a push bot?
        rated_match_policy_register(unvalidated_bots_refused)
