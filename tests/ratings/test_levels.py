"""The house levels rated by play: shares to Elo, the chain anchored, ``manage.py rate_levels`` storing
each level's rating per pool with the date, and the API listing them beside the ladder's ratings."""

from __future__ import annotations

import math
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from ratings.errors import UnknownPool
from ratings.levels import PairResult, chain, elo_difference, rate_pool
from ratings.models import LevelRating, Rating
from ratings.services import MeasuredLevel, level_ratings_record
from tests.factories import LevelRatingFactory


def _pair(lower: str, upper: str, share: float, results: int = 100) -> PairResult:
    return PairResult(
        pool="tute2",
        lower=lower,
        upper=upper,
        deals=results // 2,
        results=results,
        share=share,
        points_share=None,
        seconds=0.0,
    )


def test_a_share_is_an_elo_difference_kept_finite() -> None:
    assert elo_difference(0.5, 100) == 0.0
    assert elo_difference(0.75, 100) == pytest.approx(400 * math.log10(3))
    assert elo_difference(0.25, 100) == pytest.approx(-400 * math.log10(3))
    # never losing is worth the share of all but half a result
    assert elo_difference(1.0, 100) == pytest.approx(400 * math.log10(0.995 / 0.005))
    assert elo_difference(0.0, 100) == pytest.approx(-elo_difference(1.0, 100))


def test_neighbours_differences_chain_from_the_anchor() -> None:
    pairs = [_pair("random", "beginner", 0.75), _pair("beginner", "rule", 0.5), _pair("rule", "search", 0.6)]
    ratings = chain(["random", "beginner", "rule", "search"], pairs, anchor="rule", anchor_rating=1620.0)
    step = 400 * math.log10(3)
    assert ratings["rule"] == 1620.0 and ratings["beginner"] == 1620.0
    assert ratings["random"] == pytest.approx(1620.0 - step, abs=0.05)
    assert ratings["search"] == pytest.approx(1620.0 + 400 * math.log10(1.5), abs=0.05)
    assert list(ratings) == ["random", "beginner", "rule", "search"]


def test_a_pool_is_rated_by_play() -> None:
    seen: list[PairResult] = []
    rated = rate_pool(
        "tute2",
        ["random", "beginner"],
        deals=2,
        seed="unit",
        anchor_rating=1500.0,
        anchor="beginner",
        progress=seen.append,
    )
    assert [(p.lower, p.upper, p.results) for p in seen] == [("random", "beginner", 4)]
    assert rated.ratings["beginner"] == 1500.0
    assert rated.ratings["random"] == pytest.approx(1500.0 - seen[0].elo, abs=0.05)
    with pytest.raises(ValueError):
        rate_pool("tute4-pairs", ["random", "rule"], deals=1, seed="unit", anchor_rating=1500.0)


@pytest.mark.django_db
def test_recording_replaces_a_levels_measure_and_keeps_the_others() -> None:
    old = timezone.now() - timedelta(days=30)
    LevelRatingFactory(level="search", pool="tute2", rating=1550.0, measured_at=old)
    LevelRatingFactory(level="rule", pool="pocha", rating=1490.0, measured_at=old)
    rows = level_ratings_record(
        pool="tute2",
        levels={"rule": MeasuredLevel(1500.0), "search": MeasuredLevel(1530.0, against="rule", share=0.54)},
        deals=50,
    )
    assert {(r.level, r.rating, r.deals) for r in rows} == {("rule", 1500.0, 50), ("search", 1530.0, 50)}
    search = LevelRating.objects.get(level="search", pool="tute2")
    assert search.share == 0.54 and search.against == "rule" and search.measured_at > old
    assert LevelRating.objects.get(level="rule", pool="pocha").measured_at == old
    with pytest.raises(UnknownPool):
        level_ratings_record(pool="bridge", levels={"rule": MeasuredLevel(1500.0)}, deals=1)


@pytest.mark.django_db
def test_the_database_keeps_one_measure_a_level_and_pool() -> None:
    LevelRatingFactory(level="rule", pool="tute2")
    with pytest.raises(IntegrityError), transaction.atomic():
        LevelRating.objects.create(
            level="rule", pool="tute2", rating=1.0, deals=1, measured_at=timezone.now()
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        LevelRating.objects.create(
            level="casual",
            pool="tute2",
            rating=1.0,
            deals=1,
            share=1.5,
            against="rule",
            measured_at=timezone.now(),
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        LevelRating.objects.create(
            level="casual", pool="tute2", rating=1.0, deals=0, measured_at=timezone.now()
        )


@pytest.mark.django_db
def test_rate_levels_stores_each_levels_rating_with_the_date_anchored_at_the_rule_bots_ladder_rating() -> (
    None
):
    Rating.objects.create(
        pool="tute2", subject="house:rule", house_bot="rule", is_bot=True, rating=1620.0, rated_matches=50
    )
    out = StringIO()
    started = timezone.now()
    call_command(
        "rate_levels",
        deals=2,
        pocha_games=1,
        games="tute2,pocha",
        levels="random,beginner,casual,rule",
        seed="t",
        stdout=out,
    )
    printed = out.getvalue()
    assert "casual vs beginner:" in printed and "rule anchored at 1620.0" in printed and "Elo" in printed
    rows = {(r.pool, r.level): r for r in LevelRating.objects.all()}
    assert set(rows) == {
        (pool, level) for pool in ("tute2", "pocha") for level in ("random", "beginner", "casual", "rule")
    }
    assert rows[("tute2", "rule")].rating == 1620.0  # the ladder's rating anchors the scale
    assert rows[("pocha", "rule")].rating == 1500.0  # no ladder rating in Pocha: the starting rating
    assert all(r.measured_at >= started for r in rows.values())
    assert rows[("tute2", "random")].against == "" and rows[("tute2", "random")].share is None
    assert rows[("tute2", "casual")].against == "beginner" and 0 <= rows[("tute2", "casual")].share <= 1
    assert rows[("tute2", "rule")].deals == 2 and rows[("pocha", "rule")].deals == 1
    # the API lists them, measured beside the ladder's ratings
    levels = {item["level"]: item for item in APIClient().get("/api/v1/bots/levels/").json()}
    rule = levels["rule"]
    assert rule["ratings"]["tute2"]["rating"] == 1620.0
    assert rule["measured"]["tute2"]["rating"] == 1620.0 and rule["measured"]["tute2"]["deals"] == 2
    assert rule["measured"]["tute2"]["measured_at"] and rule["measured"]["tute2"]["against"] == "casual"
    assert levels["search"]["measured"] == {} and set(levels["beginner"]["measured"]) == {"tute2", "pocha"}


@pytest.mark.django_db
def test_rate_levels_refuses_what_it_cannot_measure() -> None:
    with pytest.raises(CommandError, match="unknown game"):
        call_command("rate_levels", games="bridge", stdout=StringIO())
    with pytest.raises(CommandError, match="anchor"):
        call_command("rate_levels", levels="random,beginner", stdout=StringIO())
    with pytest.raises(CommandError, match="two levels"):
        call_command("rate_levels", levels="rule", stdout=StringIO())
    call_command("rate_levels", deals=1, games="tute2", levels="random,rule", dry_run=True, stdout=StringIO())
    assert not LevelRating.objects.exists()
