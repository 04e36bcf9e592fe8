"""The rating-history chart: geometry for an inline SVG drawn by the template, computed here.

Pure functions of the history rows (``ratings.selectors.player_ratings``): no queries, no markup.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

WIDTH = 640
HEIGHT = 220
PAD_LEFT = 48
PAD_RIGHT = 12
PAD_TOP = 12
PAD_BOTTOM = 28


@dataclass(frozen=True, slots=True)
class ChartPoint:
    x: float
    y: float
    rating: float
    label: str  # the date, for the point's tooltip
    match: int | None


@dataclass(frozen=True, slots=True)
class Tick:
    pos: float
    label: str
    anchor: str = "middle"  # SVG text-anchor: labels at the edges stay inside the box


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    points: list[ChartPoint]
    polyline: str
    y_ticks: list[Tick]
    x_ticks: list[Tick]
    left: int
    right: int
    top: int
    bottom: int


def _nice_step(span: float) -> float:
    raw = span / 4 or 1.0
    power = 10 ** math.floor(math.log10(raw))
    for mult in (1, 2, 5, 10):
        if raw <= mult * power:
            return mult * power
    return 10 * power


def _value_axis(low: float, high: float) -> tuple[float, float, float]:
    """The y axis over ``low``..``high``: at least 20 wide, widened to whole steps of a round size."""
    if high - low < 20:
        mid = (high + low) / 2
        low, high = mid - 10, mid + 10
    step = _nice_step(high - low)
    return math.floor(low / step) * step, math.ceil(high / step) * step, step


def _y_ticks(
    low: float, high: float, step: float, y_of: Callable[[float], float], label: Callable[[float], str]
) -> list[Tick]:
    ticks = []
    value = low
    while value <= high + 1e-9:
        ticks.append(Tick(pos=round(y_of(value), 1), label=label(value)))
        value += step
    return ticks


def _x_ticks(labels: list[str], x_of: Callable[[int], float]) -> list[Tick]:
    """Three dated ticks at most: the first, the middle and the last point with a date."""
    count = len(labels)
    dated = [i for i, label in enumerate(labels) if label]
    picks = sorted({dated[0], dated[len(dated) // 2], dated[-1]}) if dated else []
    return [
        Tick(
            pos=round(x_of(i), 1),
            label=labels[i],
            anchor="end" if i == count - 1 and count > 1 else "start" if i == 0 and count > 1 else "middle",
        )
        for i in picks
    ]


def rating_chart(history: list[dict[str, Any]], *, initial: float | None = None) -> Chart | None:
    """Geometry of a line chart of ``history`` (rows with ``date``, ``rating``, ``match``), oldest first.

    ``initial`` (the rating before the first match) starts the line. None when there is nothing to draw.
    """
    if not history:
        return None
    values = [float(row["rating"]) for row in history]
    labels = [row["date"].strftime("%Y-%m-%d") for row in history]
    matches: list[int | None] = [row.get("match") for row in history]
    if initial is not None:
        values.insert(0, float(initial))
        labels.insert(0, "")
        matches.insert(0, None)
    low, high, step = _value_axis(min(values), max(values))
    left, right = PAD_LEFT, WIDTH - PAD_RIGHT
    top, bottom = PAD_TOP, HEIGHT - PAD_BOTTOM
    count = len(values)

    def x_of(i: int) -> float:
        return left + (right - left) * (i / (count - 1) if count > 1 else 0.5)

    def y_of(v: float) -> float:
        return bottom - (bottom - top) * (v - low) / (high - low)

    points = [
        ChartPoint(
            x=round(x_of(i), 1), y=round(y_of(v), 1), rating=round(v), label=labels[i], match=matches[i]
        )
        for i, v in enumerate(values)
    ]
    y_ticks = _y_ticks(low, high, step, y_of, lambda value: f"{value:.0f}")
    x_ticks = _x_ticks(labels, x_of)
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        points=points,
        polyline=" ".join(f"{p.x},{p.y}" for p in points),
        y_ticks=y_ticks,
        x_ticks=x_ticks,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
    )


@dataclass(frozen=True, slots=True)
class SkillPoint:
    x: float
    y: float
    skill: float
    label: str  # the date, for the point's tooltip
    match: int


@dataclass(frozen=True, slots=True)
class SkillChart:
    """Each game's skill (score minus what its cards average) as a dot, the running average as a line,
    and the zero line (the play added nothing to the cards)."""

    width: int
    height: int
    points: list[SkillPoint]
    average: str  # the running average's polyline
    latest: float  # the running average after the last game
    zero: float  # the y of skill 0
    y_ticks: list[Tick]
    x_ticks: list[Tick]
    left: int
    right: int
    top: int
    bottom: int


def skill_chart(rows: list[dict[str, Any]]) -> SkillChart | None:
    """Geometry of the skill chart of ``rows`` (``web.fairness.skill_summary``'s: ``finished_at``, ``skill``,
    ``match``), oldest first; None when there is nothing to draw."""
    if not rows:
        return None
    skills = [float(row["skill"]) for row in rows]
    running = [round(sum(skills[: i + 1]) / (i + 1), 1) for i in range(len(skills))]
    labels = [row["finished_at"].strftime("%Y-%m-%d") if row["finished_at"] else "" for row in rows]
    low, high, step = _value_axis(min(0.0, *skills), max(0.0, *skills))
    left, right = PAD_LEFT, WIDTH - PAD_RIGHT
    top, bottom = PAD_TOP, HEIGHT - PAD_BOTTOM
    count = len(skills)

    def x_of(i: int) -> float:
        return round(left + (right - left) * (i / (count - 1) if count > 1 else 0.5), 1)

    def y_of(v: float) -> float:
        return round(bottom - (bottom - top) * (v - low) / (high - low), 1)

    points = [
        SkillPoint(x=x_of(i), y=y_of(v), skill=v, label=labels[i], match=int(rows[i]["match"]))
        for i, v in enumerate(skills)
    ]
    y_ticks = _y_ticks(low, high, step, y_of, lambda value: f"{value:+.0f}" if value else "0")
    x_ticks = _x_ticks(labels, x_of)
    return SkillChart(
        width=WIDTH,
        height=HEIGHT,
        points=points,
        average=" ".join(f"{x_of(i)},{y_of(v)}" for i, v in enumerate(running)),
        latest=running[-1],
        zero=y_of(0.0),
        y_ticks=y_ticks,
        x_ticks=x_ticks,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
    )
