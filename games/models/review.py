"""Reviews of finished games: one seat's decisions set against the strongest analysis the server affords
(games.bots.review), worked out once per game and seat by a worker on the background queue."""

from __future__ import annotations

from django.db import models
from django.db.models import Q


class Review(models.Model):
    """One game's review for one match seat: ``entries`` fills in decision by decision (the progress a
    client sees, and where a redelivered task goes on from) until ``status`` is done."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="reviews")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="reviews")
    seat = models.PositiveSmallIntegerField(help_text="The match seat reviewed.")
    player = models.ForeignKey(
        "games.Player",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="reviews",
        help_text="Who held the seat (none for a house bot's): whose progress it shows.",
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    decisions = models.PositiveSmallIntegerField(
        help_text="The seat's decisions with a choice: the whole job."
    )
    entries = models.JSONField(default=list, blank=True, help_text="One per decision reviewed so far.")
    worst = models.JSONField(
        default=list, blank=True, help_text="Indexes of the costliest entries, costliest first."
    )
    points_lost = models.FloatField(default=0.0)
    analysis = models.CharField(max_length=32, blank=True, help_text="What reviewed it (the budget's name).")
    error = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="review_unique_game_seat"),
            models.CheckConstraint(condition=Q(points_lost__gte=0), name="review_points_lost_not_negative"),
            models.CheckConstraint(
                condition=~Q(status="done") | Q(finished_at__isnull=False), name="review_done_has_finished_at"
            ),
        ]
        indexes = [models.Index(fields=["player", "status", "finished_at"], name="review_player_progress")]

    def __str__(self) -> str:
        return f"review of seat {self.seat}, {self.game}"

    @property
    def progress(self) -> float:
        return 1.0 if self.decisions == 0 else min(1.0, len(self.entries) / self.decisions)
