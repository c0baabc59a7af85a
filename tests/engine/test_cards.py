import pytest

from rules_engine.cards import (
    CardError,
    adjacent,
    full_deck,
    is_card,
    parse_card,
    rank_value,
)


def test_rank_values_run_from_ace_one_to_king_thirteen_and_joker_zero():
    assert rank_value("AS") == 1
    assert rank_value("TH") == 10
    assert rank_value("KC") == 13
    assert rank_value("X") == 0


def test_parse_card_normalises_and_rejects_non_cards():
    assert parse_card("7h") == "7H"
    assert parse_card("10S") == "TS"
    assert is_card("QD")
    assert not is_card("1H")
    with pytest.raises(CardError):
        parse_card("ZZ")


def test_adjacent_means_one_rank_apart_and_the_ace_wraps_both_ways():
    assert adjacent("7H", "8S")
    assert adjacent("7H", "6C")
    assert not adjacent("7H", "7S")
    assert not adjacent("7H", "9S")
    assert adjacent("KH", "AS")
    assert adjacent("AS", "2D")
    assert not adjacent("KH", "AS", wrap=False)
    assert not adjacent("X", "7H")


def test_full_deck_allows_duplicates_across_decks():
    one = full_deck()
    assert len(one) == 52 and len(set(one)) == 52
    two = full_deck(decks=2, jokers=2)
    assert len(two) == 106 and two.count("7H") == 2 and two.count("X") == 2
