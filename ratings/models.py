"""Ratings per pool (a game, or Tute 4 pairs) and the changes each rated match made to them."""

from __future__ import annotations

from django.db import models

from games.models import Match, Player


class Pool(models.TextChoices):
    TUTE2 = "tute2", "Tute (2 players)"
    TUTE4 = "tute4", "Tute (4 players), individual"
    TUTE4_PAIRS = "tute4-pairs", "Tute (4 players), pairs"
    POCHA = "pocha", "Pocha"


class Rating(models.Model):
    """One competitor's current rating in one pool.

    A competitor (``subject``) is a player (``player:<id>``), a house bot level (``house:<level>``) or,
    in the pairs pool, two players (``pair:<id>-<id>``, lower id first).
    """

    pool = models.CharField(max_length=12, choices=Pool.choices)
    subject = models.CharField(max_length=64)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="ratings"
    )
    partner = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    house_bot = models.CharField(max_length=16, blank=True)
    is_bot = models.BooleanField(default=False)
    rating = models.FloatField()
    rated_matches = models.PositiveIntegerField(default=0)
    last_played_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pool", "-rating"]
        constraints = [models.UniqueConstraint(fields=["pool", "subject"], name="rating_unique_subject")]
        indexes = [models.Index(fields=["pool", "-rating"])]

    def __str__(self) -> str:
        return f"{self.subject} {self.pool} {self.rating:.0f}"


class RatingChange(models.Model):
    """What one rated match did to one competitor's rating. One row per (match, pool, competitor)."""

    # No index of their own: the unique (match, pool, subject) and the (rating, played_at) index lead
    # with these columns, and every extra index costs each write (the recompute writes 300,000 rows).
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes", db_index=False)
    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes", db_index=False)
    pool = models.CharField(max_length=12, choices=Pool.choices)
    subject = models.CharField(max_length=64)
    before = models.FloatField()
    after = models.FloatField()
    delta = models.FloatField()
    k = models.FloatField()
    played_at = models.DateTimeField()

    class Meta:
        ordering = ["played_at", "match_id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "pool", "subject"], name="rating_change_once_per_match")
        ]
        indexes = [models.Index(fields=["rating", "played_at"])]

    def __str__(self) -> str:
        return f"{self.subject} {self.pool} {self.delta:+.1f} (match {self.match_id})"


class RatedMatch(models.Model):
    """A finished rated match the ratings have taken into account, exactly once.

    The ledger of applied matches: a match is applied once whether it changed ratings or not (every
    seat held by one house-bot level changes nothing and counts for nobody), so the rating task's
    backlog query never meets such a match again.
    """

    match = models.OneToOneField(Match, primary_key=True, on_delete=models.CASCADE, related_name="+")

    def __str__(self) -> str:
        return f"match {self.match_id} rated"


class RatingsWriter(models.Model):
    """One row every ratings writer locks first (``select_for_update``), so they run one at a time.

    The incremental task and ``ratings_recompute`` both rewrite rating rows; the recompute replaces
    them all. Holding this row keeps an update from writing rows the recompute is about to replace,
    on every database, with the ORM's own row lock. Writers are few (one per finished rated match).
    """

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)

    class Meta:
        constraints = [models.CheckConstraint(condition=models.Q(id=1), name="ratings_writer_singleton")]

    def __str__(self) -> str:
        return "ratings writer lock"


class LevelRating(models.Model):
    """A house bot level's rating in one pool as measured by play: ``manage.py rate_levels`` plays the
    levels against each other on duplicate deals, turns each level's share against the level below into
    an Elo difference and anchors the scale (docs/BOTS.md, "House levels"). Apart from ``Rating``: the
    ladder's ``house:<level>`` rows move with rated matches; this one is recomputed by the command."""

    level = models.CharField(max_length=16)
    pool = models.CharField(max_length=12, choices=Pool.choices)
    rating = models.FloatField()
    #: Deals (Tute) or whole games (Pocha) played against each neighbouring level, each from both sides.
    deals = models.PositiveIntegerField()
    #: The level measured against (the one below it; blank for the weakest) and its share of the results.
    against = models.CharField(max_length=16, blank=True)
    share = models.FloatField(null=True, blank=True)
    measured_at = models.DateTimeField()

    class Meta:
        ordering = ["pool", "rating"]
        constraints = [
            models.UniqueConstraint(fields=["level", "pool"], name="level_rating_unique_level_pool"),
            models.CheckConstraint(condition=~models.Q(level=""), name="level_rating_level_named"),
            models.CheckConstraint(condition=models.Q(deals__gt=0), name="level_rating_played"),
            models.CheckConstraint(
                condition=models.Q(share__isnull=True) | models.Q(share__gte=0, share__lte=1),
                name="level_rating_share_range",
            ),
            models.CheckConstraint(
                condition=models.Q(share__isnull=True, against="")
                | (models.Q(share__isnull=False) & ~models.Q(against="")),
                name="level_rating_share_against",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.level} {self.pool} {self.rating:.0f} ({self.measured_at:%Y-%m-%d})"
