"""The human-looking levels (games.bots.human): the rule bot's play except for named mistakes, each a
plausible pattern among the legal actions, deterministic per seed, and weaker by grade. Fixed seeds make
the strength checks exact, not flaky; bench figures on hundreds of deals are in docs/PERFORMANCE.md."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from games.bots import BOT_LEVELS, get_bot
from games.bots.arena import duel, pocha_duel
from games.bots.human import BEGINNER_RATES, CASUAL_RATES, MISTAKES, Decision, HumanBot
from games.bots.rule import choose as rule_choose
from games.engine import Rules, SeatView, State
from games.engine.cards import INDEX_OF_CODE, POINTS, RANK_OF, SUIT_OF, SUITS
from games.engine.tricks import beats

ALWAYS = HumanBot(dict.fromkeys(MISTAKES, 1.0))


def _copy(rng: random.Random) -> random.Random:
    twin = random.Random()
    twin.setstate(rng.getstate())
    return twin


def _rules(game: str) -> Rules:
    return Rules.build("pocha", 4) if game == "pocha" else Rules.build(game)


def _decisions(
    game: str, bot: HumanBot, games: int, seed: str
) -> list[tuple[SeatView, tuple[str, ...], str, Decision]]:
    """Games with ``bot`` in seat 0 and the rule bot elsewhere: every decision of seat 0, with the rule
    bot's own choice from the same random state."""
    rules = _rules(game)
    out = []
    for number in range(games):
        state = State.new(rules, dealer=number % rules.players, seed=f"{seed}:{number}")
        rngs = [random.Random(f"{seed}:{number}:{s}") for s in range(rules.players)]
        while not state.is_terminal():
            seat = state.current_player()
            assert seat is not None
            view, legal = state.view(seat), state.legal_actions()
            if seat == 0:
                sound = rule_choose(view, legal, _copy(rngs[0]))
                decision = bot.decide(view, legal, rngs[0])
                out.append((view, legal, sound, decision))
                action = decision.action
            else:
                action = rule_choose(view, legal, rngs[seat])
            state = state.apply(action)
    return out


def _is_the_pattern(view: SeatView, legal: tuple[str, ...], sound: str, d: Decision) -> bool:
    """What each named mistake looks like on the table."""
    trump = SUITS.index(view.trump)
    card = INDEX_OF_CODE[d.action[5:]] if d.action.startswith("play:") else None
    trick = [INDEX_OF_CODE[code] for _, code in view.trick]
    if d.mistake == "skip_swap":
        return any(a.startswith("exchange:") for a in legal) and not d.action.startswith("exchange:")
    if d.mistake == "skip_cante":
        return any(a.startswith("sing:") for a in legal) and not d.action.startswith("sing:")
    if d.mistake == "overbid":
        return d.action.startswith("bid:") and int(d.action[4:]) > int(sound[4:])
    assert card is not None
    if d.mistake == "no_count":
        return view.game != "pocha" and len(view.hand) <= 8
    if d.mistake == "waste_high":
        return bool(trick) and POINTS[card] >= 10
    if d.mistake in ("cheap_trump", "trump_partner"):
        return bool(trick) and SUIT_OF[card] == trump and SUIT_OF[trick[0]] != trump
    if d.mistake == "overkill":
        return bool(trick) and any(beats(card, c, trump) for c in trick)
    if d.mistake == "break_pair":
        return RANK_OF[card] in (11, 12)
    if d.mistake == "ace_into_void":
        return not trick and SUIT_OF[card] != trump and POINTS[card] >= 10
    if d.mistake == "overtrick":
        return view.game == "pocha" and bool(trick)
    return False


@pytest.mark.parametrize(("game", "games"), [("tute2", 6), ("tute4", 4), ("pocha", 1)])
def test_every_mistake_is_a_named_pattern_among_the_legal_actions(game: str, games: int) -> None:
    made: Counter[str | None] = Counter()
    for view, legal, sound, decision in _decisions(game, ALWAYS, games, seed="human"):
        assert decision.action in legal
        made[decision.mistake] += 1
        if decision.mistake is None:
            assert decision.action == sound  # no mistake: exactly the rule bot's choice
        else:
            assert decision.mistake in MISTAKES
            assert decision.action != sound
            assert _is_the_pattern(view, legal, sound, decision), (decision, view.trick, view.hand)
    assert made[None] and len(made) >= 3, made


def test_the_beginner_makes_several_kinds_of_mistake_and_the_casual_player_fewer() -> None:
    beginner = Counter(d.mistake for *_, d in _decisions("tute2", get_bot("beginner"), 6, seed="kinds"))  # type: ignore[arg-type]
    casual = Counter(d.mistake for *_, d in _decisions("tute2", get_bot("casual"), 6, seed="kinds"))  # type: ignore[arg-type]
    beginner_mistakes = sum(n for name, n in beginner.items() if name)
    casual_mistakes = sum(n for name, n in casual.items() if name)
    assert len([name for name in beginner if name]) >= 4, beginner
    assert 0 < casual_mistakes < beginner_mistakes, (casual, beginner)
    assert all(CASUAL_RATES[name] < rate for name, rate in BEGINNER_RATES.items() if rate)


def test_a_human_level_is_deterministic_for_a_seed() -> None:
    first = [(d.action, d.mistake) for *_, d in _decisions("tute2", get_bot("beginner"), 2, seed="again")]  # type: ignore[arg-type]
    second = [(d.action, d.mistake) for *_, d in _decisions("tute2", get_bot("beginner"), 2, seed="again")]  # type: ignore[arg-type]
    assert first == second


def test_without_mistakes_it_is_the_rule_bot() -> None:
    for _view, _legal, sound, decision in _decisions("tute4", HumanBot({}), 1, seed="none"):
        assert decision == Decision(sound, None)


def test_mistakes_and_rates_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown mistakes"):
        HumanBot({"random_card": 0.5})
    with pytest.raises(ValueError, match="between 0 and 1"):
        HumanBot({"waste_high": 1.5})


def test_the_levels_are_ordered_weakest_first_on_duplicate_deals() -> None:
    # each level takes more than half of the points against the level below it, seats swapped on each deal
    levels = ["random", "beginner", "casual", "rule"]
    assert [level for level in BOT_LEVELS if level in levels] == levels
    for lower, upper in itertools.pairwise(levels):
        result = duel("tute2", get_bot(upper), get_bot(lower), deals=10, seed="ladder-order")
        assert result.points_share > 0.5, (upper, lower, result)
    table = pocha_duel(get_bot("beginner"), get_bot("random"), games=1, seed="ladder-order")
    assert table.share > 0.5 and table.comparisons == 8, table
