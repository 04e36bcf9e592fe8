"""The review on the website without a browser (issue 32.2, 32.4): the match page's review panel offers
the seats the viewer may have reviewed, and a player's page shows the points lost per decision over
time from the reviews of their own seats."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.bots.review import Reviewer
from games.bots.search import Budget
from games.models import Match, Player, Review
from games.services import review as review_service
from games.services.review import review_compute, review_request
from tests.factories import MatchFactory
from tests.web.conftest import person, play_out

pytestmark = pytest.mark.django_db

SMALL = Budget(samples=4, playouts=24, solve_cards=8, solve_nodes=20000, solve_samples=2, prior=0.0)


@pytest.fixture(autouse=True)
def quick_reviewer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(review_service, "REVIEWER", Reviewer(SMALL, tute4=SMALL))


def finished(me: Player, *, private: bool = False, seed: int = 1) -> Match:
    return play_out(MatchFactory(created_by=me, game="tute2", seats=[me, "rule"], private=private), seed=seed)


def panel_seats(html: str) -> list[str]:
    panel = re.search(r'<select id="review-seat">(.*?)</select>', html, re.S)
    return re.findall(r'value="(\d+)"', panel.group(1)) if panel else []


def test_the_review_panel_offers_the_seats_the_viewer_may_have_reviewed(client: Client) -> None:
    alice = person("alice")
    public = finished(alice)
    assert panel_seats(client.get(reverse("web:match", args=[public.pk])).content.decode()) == ["0", "1"]
    private = finished(alice, private=True, seed=2)
    visitor = client.get(reverse("web:match", args=[private.pk])).content.decode()
    assert 'id="review"' not in visitor and 'id="replay"' in visitor
    client.force_login(alice.user)
    mine = client.get(reverse("web:match", args=[private.pk])).content.decode()
    assert panel_seats(mine) == ["0"]
    assert f'data-url="/api/v1/matches/{private.pk}/review/"' in mine


def test_a_players_page_shows_the_points_lost_per_decision_over_time(client: Client) -> None:
    alice = person("alice")
    matches = [finished(alice, seed=seed) for seed in (1, 2, 3)]
    reviews = []
    for match in matches:
        review = review_request(match_id=match.pk, game_number=0, seat=0, player=alice)
        done = review_compute(review_id=review.pk)
        assert done is not None
        reviews.append(done)
    # the house bot's seat reviewed too: not alice's progress
    other = review_request(match_id=matches[0].pk, game_number=0, seat=1, player=None)
    review_compute(review_id=other.pk)
    html = client.get(reverse("web:player", args=["alice"])).content.decode()
    section = re.search(r'<section id="progress".*?</section>', html, re.S)
    assert section, "the progress section"
    text = section.group(0)
    assert len(re.findall(r'<circle [^>]*class="dot', text)) == 3
    rows = re.findall(r"<tr><td>.*?</tr>", text, re.S)
    assert len(rows) == 3
    average = sum(r.points_lost for r in reviews) / sum(r.decisions for r in reviews)
    assert f"{round(average, 2)} points lost a decision on average" in text
    latest = reviews[-1]
    assert f"<td>{latest.decisions}</td><td>{latest.points_lost}</td>" in rows[0]
    assert Review.objects.filter(player=alice).count() == 3


def test_no_progress_section_without_reviews(client: Client) -> None:
    alice = person("alice")
    finished(alice)
    assert 'id="progress"' not in client.get(reverse("web:player", args=["alice"])).content.decode()
