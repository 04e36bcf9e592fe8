"""Quick pairing: seeks, the pairer (close ratings, the widening window, ranges, Tute 4's pairs, house
bots after a wait), seeks that end when their person goes away, and answering a seek."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone

from games.errors import PeopleOnly
from games.models import Match, Player
from lobby.errors import InvalidSeek, SeekExists, SeekMatched, SeekOutOfRange
from lobby.models import Seek
from lobby.services import house_level_near, seek_answer, seek_cancel, seek_create, seek_seen, seeks_pair
from ratings.models import Rating
from tests.factories import BotPlayerFactory, LevelRatingFactory, PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated() -> Callable[..., Player]:
    """A person with a rating in a pool."""

    def make(rating: float, pool: str = "tute2") -> Player:
        player: Player = PlayerFactory()
        Rating.objects.create(
            pool=pool, subject=f"player:{player.pk}", player=player, rating=rating, rated_matches=20
        )
        return player

    return make


def aged(seek: Seek, seconds: float) -> Seek:
    """The seek as if made ``seconds`` ago (and polled just now)."""
    Seek.objects.filter(pk=seek.pk).update(created_at=timezone.now() - timedelta(seconds=seconds))
    seek.refresh_from_db()
    return seek


def test_two_seeks_of_close_rating_become_one_started_match(rated: Callable[..., Player]) -> None:
    # given: two people rated 50 points apart looking for a rated Tute 2
    ana, ben = rated(1500), rated(1550)
    a, b = seek_create(player=ana, game="tute2"), seek_create(player=ben, game="tute2")

    # when: the pairer runs
    paired = seeks_pair()

    # then: one match, started, with both; both seeks point at it
    assert len(paired.matches) == 1
    match = Match.objects.get(pk=paired.matches[0])
    assert match.status == Match.Status.IN_PROGRESS and match.rated and not match.private
    assert {s.player_id for s in match.seats.all()} == {ana.pk, ben.pk}
    for seek in (a, b):
        seek.refresh_from_db()
        assert seek.status == Seek.Status.MATCHED and seek.match_id == match.pk
    assert seeks_pair().matches == []  # nothing twice


def test_far_ratings_wait_until_the_window_has_widened(
    rated: Callable[..., Player], settings: object
) -> None:
    # given: 400 points apart (window: 100 + 10 a second of waiting)
    ana, ben = rated(1300), rated(1700)
    a, b = seek_create(player=ana, game="tute2"), seek_create(player=ben, game="tute2")
    assert seeks_pair().matches == []
    # when: the newer one has waited 20 s (window 300) and the older 40 s: still too far for the newer
    aged(a, 40)
    aged(b, 20)
    assert seeks_pair().matches == []
    # when: both have waited 31 s or more (windows of 410 and more)
    aged(b, 31)
    assert len(seeks_pair().matches) == 1


def test_a_seeks_own_rating_range_is_kept_however_long_it_waits(rated: Callable[..., Player]) -> None:
    ana, ben = rated(1500), rated(1520)
    a = seek_create(player=ana, game="tute2", rating_min=1600)
    seek_create(player=ben, game="tute2")
    aged(a, 600)
    assert seeks_pair().matches == []


def test_seeks_of_other_kinds_never_meet(rated: Callable[..., Player]) -> None:
    ana, ben, cris = rated(1500), rated(1500), rated(1500)
    seek_create(player=ana, game="tute2", rated=True)
    seek_create(player=ben, game="tute2", rated=False)
    seek_create(player=cris, game="tute2", human_move_seconds=30)
    assert seeks_pair().matches == []


def test_four_tute4_seeks_make_a_table_whose_pairs_are_balanced(rated: Callable[..., Player]) -> None:
    # given: four people for Tute 4, and three is not enough
    people = [rated(r, "tute4") for r in (1500, 1590, 1530, 1560)]
    for p in people[:3]:
        seek_create(player=p, game="tute4")
    assert seeks_pair().matches == []
    seek_create(player=people[3], game="tute4")

    # when: the pairer runs, with the fourth
    (match_id,) = seeks_pair().matches

    # then: the strongest partners the weakest (seats 0 and 2), the two others sit together
    by_seat = {s.index: s.player_id for s in Match.objects.get(pk=match_id).seats.all()}
    strongest, second, third, weakest = (people[i].pk for i in (1, 3, 2, 0))
    assert {by_seat[0], by_seat[2]} == {strongest, weakest}
    assert {by_seat[1], by_seat[3]} == {second, third}


def test_a_lone_seek_gets_house_bots_of_its_level_after_its_wait(rated: Callable[..., Player]) -> None:
    # given: the house levels rated, and a person of 1580 alone looking for Tute 4 with bots after 30 s
    for level, rating in (("random", 1100), ("rule", 1600), ("search", 1900)):
        Rating.objects.create(pool="tute4", subject=f"house:{level}", rating=rating, rated_matches=100)
    ana = rated(1580, "tute4")
    seek = seek_create(player=ana, game="tute4", bots_after_seconds=30)
    assert house_level_near("tute4", 1580) == "rule"

    # then: nothing before its wait; after it, a started match with three rule bots
    aged(seek, 10)
    assert seeks_pair().matches == []
    aged(seek, 31)
    (match_id,) = seeks_pair().matches
    match = Match.objects.get(pk=match_id)
    assert match.status == Match.Status.IN_PROGRESS
    assert [s.bot_level or "ana" for s in match.seats.order_by("index")] == ["ana", "rule", "rule", "rule"]


def test_two_people_with_bots_allowed_sit_together_with_bots_for_the_rest(
    rated: Callable[..., Player],
) -> None:
    ana, ben = rated(1500, "pocha"), rated(1510, "pocha")
    a = seek_create(player=ana, game="pocha", players=4, bots_after_seconds=5)
    b = seek_create(player=ben, game="pocha", players=4, bots_after_seconds=5)
    aged(a, 6)
    aged(b, 6)
    (match_id,) = seeks_pair().matches
    seats = list(Match.objects.get(pk=match_id).seats.order_by("index"))
    assert [s.player_id for s in seats[:2]] == [ana.pk, ben.pk] and all(s.bot_level for s in seats[2:])


def test_people_waiting_with_a_seek_whose_bots_are_due_sit_with_it(rated: Callable[..., Player]) -> None:
    # given: three people for Tute 4, only one of them taking house bots (after 10 s)
    ana, ben, cris = (rated(r, "tute4") for r in (1500, 1520, 1540))
    a = seek_create(player=ana, game="tute4", bots_after_seconds=10)
    seek_create(player=ben, game="tute4")
    seek_create(player=cris, game="tute4")
    assert seeks_pair().matches == []
    # when: ana's wait for people is over
    aged(a, 11)
    (match_id,) = seeks_pair().matches
    # then: the three sit together, one house bot in the fourth seat
    seats = list(Match.objects.get(pk=match_id).seats.order_by("index"))
    assert {s.player_id for s in seats if s.player_id} == {ana.pk, ben.pk, cris.pk}
    assert len([s for s in seats if s.bot_level]) == 1


def test_one_waiting_seek_per_game_and_people_only(rated: Callable[..., Player]) -> None:
    ana = rated(1500)
    first = seek_create(player=ana, game="tute2")
    with pytest.raises(SeekExists) as exists:
        seek_create(player=ana, game="tute2")
    assert exists.value.detail == {"seek": first.pk}
    seek_create(player=ana, game="pocha", players=3)  # another game is another seek
    with pytest.raises(PeopleOnly):
        seek_create(player=BotPlayerFactory(), game="tute2")
    with pytest.raises(InvalidSeek):
        seek_create(player=rated(1500), game="tute4", players=3)
    with pytest.raises(InvalidSeek):
        seek_create(player=rated(1500), game="pocha", players=7)


def test_a_seek_ends_when_its_person_stops_polling(rated: Callable[..., Player]) -> None:
    ana, ben = rated(1500), rated(1500)
    a = seek_create(player=ana, game="tute2")
    Seek.objects.filter(pk=a.pk).update(last_seen_at=timezone.now() - timedelta(seconds=31))
    seek_create(player=ben, game="tute2")
    assert seeks_pair().expired == 1
    a.refresh_from_db()
    assert a.status == Seek.Status.EXPIRED
    # a poll keeps a seek alive
    b = seek_seen(seek_id=Seek.objects.get(player=ben).pk, player=ben)
    assert timezone.now() - b.last_seen_at < timedelta(seconds=2)


def test_cancelling_is_idempotent_and_a_matched_seek_is_not_cancelled(rated: Callable[..., Player]) -> None:
    ana, ben = rated(1500), rated(1500)
    a = seek_create(player=ana, game="tute2")
    assert seek_cancel(seek_id=a.pk, player=ana).status == Seek.Status.CANCELLED
    assert seek_cancel(seek_id=a.pk, player=ana).status == Seek.Status.CANCELLED
    a2, b = seek_create(player=ana, game="tute2"), seek_create(player=ben, game="tute2")
    seeks_pair()
    with pytest.raises(SeekMatched):
        seek_cancel(seek_id=b.pk, player=ben)
    a2.refresh_from_db()
    assert a2.status == Seek.Status.MATCHED


def test_seated_people_stop_seeking_their_other_games(rated: Callable[..., Player]) -> None:
    ana, ben = rated(1500), rated(1500)
    other = seek_create(player=ana, game="pocha", players=5)
    seek_create(player=ana, game="tute2")
    seek_create(player=ben, game="tute2")
    seeks_pair()
    other.refresh_from_db()
    assert other.status == Seek.Status.CANCELLED


def test_answering_a_two_player_seek_seats_both_at_once_within_its_range(
    rated: Callable[..., Player],
) -> None:
    ana, ben, cris = rated(1500), rated(2100), rated(1450)
    seek = seek_create(player=ana, game="tute2", rating_max=1800)
    with pytest.raises(SeekOutOfRange):
        seek_answer(seek_id=seek.pk, player=ben)
    match = seek_answer(seek_id=seek.pk, player=cris)
    assert match.status == Match.Status.IN_PROGRESS
    assert {s.player_id for s in match.seats.all()} == {ana.pk, cris.pk}
    seek.refresh_from_db()
    assert seek.status == Seek.Status.MATCHED and seek.match_id == match.pk


def test_the_bots_of_a_matching_level_go_by_the_measured_ratings_first() -> None:
    # given: ladder ratings for the levels, and rate_levels' measures of three of them in Tute 2
    for level, rating in (("random", 1100), ("rule", 1600), ("search", 1900)):
        Rating.objects.create(pool="tute2", subject=f"house:{level}", rating=rating, rated_matches=100)
    for level, rating in (("beginner", 1250), ("casual", 1420), ("rule", 1500)):
        LevelRatingFactory(level=level, pool="tute2", rating=rating)
    # then: a measured rating wins over the ladder's (rule measured 1500, not its 1600); unmeasured levels
    # keep the ladder's
    assert house_level_near("tute2", 1270) == "beginner"
    assert house_level_near("tute2", 1440) == "casual"
    assert house_level_near("tute2", 1560) == "rule"
    assert house_level_near("tute2", 1800) == "search"
