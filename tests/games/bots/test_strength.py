"""The rule bot beats the random bot by a clear margin. Fixed seeds make these exact, not flaky: each
deal is played twice, the rule side at seat 0 (0+2) then at seat 1 (1+3). bench/bot_strength.py
measures the same on 1,000 deals and more."""

from games.bots import get_bot
from games.bots.arena import duel, pocha_table

DEALS = 150


def test_rule_beats_random_at_tute2() -> None:
    result = duel("tute2", get_bot("rule"), get_bot("random"), deals=DEALS, seed="strength")
    assert result.games == 2 * DEALS
    assert result.share > 0.65, result


def test_rule_beats_random_at_tute4() -> None:
    result = duel("tute4", get_bot("rule"), get_bot("random"), deals=DEALS, seed="strength")
    assert result.games == 2 * DEALS
    assert result.share > 0.60, result


def test_rule_outscores_three_random_players_at_pocha() -> None:
    table = pocha_table(get_bot("rule"), get_bot("random"), games=12, seed="strength", players=4)
    assert table.bot_average > table.others_average + 100, table
    assert table.first >= 10, table


def test_random_against_itself_is_even() -> None:
    # the yardstick: seats swapped, the random bot wins about half its games against itself
    result = duel("tute2", get_bot("random"), get_bot("random"), deals=DEALS, seed="strength")
    assert 0.40 < result.share < 0.60, result
