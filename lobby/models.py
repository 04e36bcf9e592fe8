"""Quick pairing: a person's seek for a game, waiting until the pairer seats them with people of close
rating (or, after ``bots_after_seconds``, with house bots). ``lobby.services`` is the only writer."""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q

from games.models import Match, Player


class Seek(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for a game"
        MATCHED = "matched", "Seated at a match"
        CANCELLED = "cancelled", "Cancelled by its person"
        EXPIRED = "expired", "Ended: its person went away"

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="seeks")
    game = models.CharField(max_length=8, choices=Match.GameName.choices)
    num_players = models.PositiveSmallIntegerField()
    rated = models.BooleanField(default=True)
    human_move_seconds = models.PositiveIntegerField(default=120)
    max_timeouts = models.PositiveSmallIntegerField(default=3)
    rating = models.FloatField(help_text="The person's rating in the game's pool when the seek was made.")
    rating_min = models.FloatField(null=True, blank=True, help_text="Only opponents rated this or more.")
    rating_max = models.FloatField(null=True, blank=True, help_text="Only opponents rated this or less.")
    bots_after_seconds = models.PositiveIntegerField(
        null=True, blank=True, help_text="After this long without people, house bots fill the free seats."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING, db_index=True)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(help_text="The person's last poll or stream of this seek.")
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "game"], condition=Q(status="waiting"), name="seek_one_waiting_per_game"
            ),
            models.CheckConstraint(
                condition=Q(rating_min__isnull=True)
                | Q(rating_max__isnull=True)
                | Q(rating_min__lte=F("rating_max")),
                name="seek_rating_range_ordered",
            ),
            models.CheckConstraint(
                condition=Q(status="matched", match__isnull=False) | ~Q(status="matched"),
                name="seek_matched_has_match",
            ),
            models.CheckConstraint(
                condition=Q(num_players__gte=2, num_players__lte=6), name="seek_players_2_to_6"
            ),
        ]

    def __str__(self) -> str:
        return f"seek {self.pk} of {self.player_id} for {self.game} ({self.status})"
