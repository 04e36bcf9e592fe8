"""A finished game's review in the replay, in a real browser with a real worker (issue 32.2): asked for
from the match page, worked out on the background queue with its progress shown, then a line beside
each of the seat's moves and the worst moments as jumps; 0 axe violations on a desktop and a phone."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Review
from tests.web.browsing import assert_fits_and_accessible
from tests.web.conftest import bot_match, person, play_out

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_a_visitor_reviews_a_public_games_seat_and_the_replay_shows_it_beside_each_move(
    page: Any, phone: Any, site: str, request: pytest.FixtureRequest
) -> None:
    me = person("reviewed")
    match = play_out(bot_match("tute2", me), seed=4)
    request.getfixturevalue("worker")  # after the game: the worker would play the house bot's turns too
    page.goto(f"{site}/matches/{match.pk}/")
    assert page.locator("#review-seat option").count() == 2, "a public match: every seat"
    page.click("#review-start")
    page.wait_for_selector("#review-summary:not([hidden])", timeout=180_000)
    review = Review.objects.get(match=match)
    assert review.status == Review.Status.DONE and review.seat == 0
    assert f"over {review.decisions} decisions" in page.inner_text("#review-total")
    # each decision of the seat: its step shows the review's line
    first = review.entries[0]
    page.fill("#step-range", str(first["game_ply"] + 1))
    page.dispatch_event("#step-range", "input")
    line = page.locator("#r-review")
    assert line.is_visible()
    text = line.inner_text()
    assert "Review:" in text and (("the best move" in text) == (first["cost"] == 0))
    # a step that is not the seat's decision shows none
    page.fill("#step-range", "0")
    page.dispatch_event("#step-range", "input")
    assert not line.is_visible()
    worst = page.locator("#review-worst button")
    assert worst.count() == len(review.worst)
    if review.worst:
        worst.first.click()
        assert "worst moments" in line.inner_text()
        entry = review.entries[review.worst[0]]
        assert page.input_value("#step-range") == str(entry["game_ply"] + 1)
    assert_fits_and_accessible(page, "a match page with its review")

    # on a phone, the stored review comes at once
    phone.goto(f"{site}/matches/{match.pk}/")
    phone.click("#review-start")
    phone.wait_for_selector("#review-summary:not([hidden])", timeout=30_000)
    phone.fill("#step-range", str(first["game_ply"] + 1))
    phone.dispatch_event("#step-range", "input")
    assert phone.locator("#r-review").is_visible()
    assert_fits_and_accessible(phone, "a match page with its review on a phone")
    phone.click("#next-trick")  # a trick's end: its cards left on the table, set apart
    assert phone.locator("#r-trick .card.dim").count() > 0
    assert_fits_and_accessible(phone, "a replay's finished trick on a phone")
    assert Review.objects.count() == 1
