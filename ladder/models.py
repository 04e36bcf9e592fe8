"""The ladder's rows: a bot's ladder profile, its validation per game, the matches the ladder made and
the incidents (refused moves, timeouts) a bot's author is shown.

Their tables keep the names they had when these models were the games app's (``games_...``): the move
to this app changed no table (ladder/migrations/0001_initial.py)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

GAMES = ("tute2", "tute4", "pocha")


class BotProfile(models.Model):
    """A bot account's ladder settings and when it was last seen (stream open or polling)."""

    player = models.OneToOneField("games.Player", on_delete=models.CASCADE, related_name="ladder")
    ladder_games = models.JSONField(default=list, blank=True, help_text="Games the bot plays on the ladder.")
    last_seen_at = models.DateTimeField(null=True, blank=True)
    push_url = models.URLField(
        blank=True, help_text="A push bot's HTTPS endpoint: each your_turn is POSTed there."
    )
    push_secret = models.CharField(
        max_length=64, blank=True, help_text="The key of the pushes' HMAC signature."
    )

    class Meta:
        db_table = "games_botprofile"

    def __str__(self) -> str:
        return f"ladder profile of {self.player_id}"


class Validation(models.Model):
    """A bot's validation for one game: ``required`` clean matches in a row against house bots."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for the bot to be online"
        RUNNING = "running", "Validation matches under way"
        PASSED = "passed", "Passed"
        FAILED = "failed", "Failed"

    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="validations")
    game = models.CharField(max_length=8)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    required = models.PositiveSmallIntegerField()
    passed = models.PositiveSmallIntegerField(default=0)
    failure = models.ForeignKey(
        "ladder.BotIncident", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    failure_reason = models.CharField(max_length=200, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "games_validation"
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="validation_once_per_game"),
            models.CheckConstraint(condition=Q(game__in=GAMES), name="validation_known_game"),
        ]

    def __str__(self) -> str:
        return f"validation of {self.player_id} for {self.game}: {self.status}"


class LadderMatch(models.Model):
    """A match the ladder made: a validation match of one bot, or a rated ladder match."""

    class Kind(models.TextChoices):
        VALIDATION = "validation", "Validation"
        LADDER = "ladder", "Ladder"

    match = models.OneToOneField("games.Match", on_delete=models.CASCADE, related_name="ladder")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    game = models.CharField(max_length=8)
    validation = models.ForeignKey(
        Validation, null=True, blank=True, on_delete=models.CASCADE, related_name="matches"
    )
    bots = models.ManyToManyField("games.Player", related_name="ladder_matches")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    finished = models.BooleanField(default=False)

    class Meta:
        db_table = "games_laddermatch"
        indexes = [models.Index(fields=["finished", "kind"], name="games_ladde_finishe_4c45d1_idx")]

    def __str__(self) -> str:
        return f"{self.kind} match {self.match_id}"


class BotIncident(models.Model):
    """Something that went wrong for a bot account's seat: a refused action or a move timed out.

    ``payload`` is what the bot was given (its turn: ply, legal codes and view), ``sent`` what it sent
    (the action request; null for a timeout) and ``answer`` what the server answered or did.
    """

    class Kind(models.TextChoices):
        ILLEGAL = "illegal", "Refused action"
        TIMEOUT = "timeout", "Move played on timeout"

    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="incidents")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="incidents")
    seat = models.PositiveSmallIntegerField()
    ply = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices)
    payload = models.JSONField(null=True, blank=True)
    sent = models.JSONField(null=True, blank=True)
    answer = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "games_botincident"
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["player", "-created_at"], name="games_botin_player__2c1e33_idx"),
            models.Index(fields=["match", "seat"], name="games_botin_match_i_010897_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} of {self.player_id} in match {self.match_id} at ply {self.ply}"
