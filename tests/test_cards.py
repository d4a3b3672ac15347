"""Cards and notation (RULES.md §1)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import dizhu
from dizhu import CLASSIC, DUEL, Card, Hand, NotationError, Rank, format_cards, parse_cards
from dizhu.cards import RANK_SYMBOLS, hand_from_counts


def test_rank_order():
    assert [r.symbol for r in Rank] == list("3456789TJQKA2BR")
    assert Rank.TWO > Rank.ACE and Rank.BLACK_JOKER > Rank.TWO and Rank.RED_JOKER > Rank.BLACK_JOKER


@pytest.mark.parametrize(
    "text,canonical",
    [
        ("333+444+55", "33344455"),
        ("10 J Q K A", "TJQKA"),
        ("t j q k a", "TJQKA"),
        ("R B", "BR"),
        ("2,A,3", "3A2"),
        ("1010", "TT"),
        ("", ""),
        ("  ", ""),
    ],
)
def test_input_notation(text, canonical):
    assert str(parse_cards(text)) == canonical
    assert format_cards(text) == canonical


@pytest.mark.parametrize(
    "text,variant,fragment",
    [
        ("77777", "classic", "rank 7"),
        ("BB", "classic", "small (black) joker"),
        ("RR", "classic", "big (red) joker"),
        ("X", "classic", "'X'"),
        ("1", "classic", "'1'"),
        ("3 % 4", "classic", "'%'"),
        ("11", "classic", "'1'"),
    ],
)
def test_bad_notation(text, variant, fragment):
    with pytest.raises(NotationError) as info:
        parse_cards(text, variant)
    assert isinstance(info.value, ValueError)
    assert fragment in str(info.value)


def test_not_text():
    with pytest.raises(NotationError):
        parse_cards(33)  # type: ignore[arg-type]


def test_decks():
    assert sum(CLASSIC.deck_counts) == 54
    assert sum(DUEL.deck_counts) == 46
    assert str(hand_from_counts(DUEL.deck_counts)).startswith("5555")


def test_cards_are_distinct_objects_with_ids():
    ids = {Card.from_id(i).id for i in range(54)}
    assert ids == set(range(54))
    assert Card(Rank.THREE, 0) is Card.from_id(0)
    with pytest.raises(NotationError):
        Card.from_id(54)
    with pytest.raises(NotationError):
        Card(Rank.RED_JOKER, 1)


def test_hand_from_card_objects_rejects_duplicates():
    card = Card.from_id(5)
    with pytest.raises(NotationError):
        Hand.of([card, card])


@given(st.lists(st.integers(0, 53), unique=True, max_size=20))
def test_round_trip(ids):
    cards = [Card.from_id(i) for i in ids]
    text = format_cards(cards)
    again = parse_cards(text)
    assert sorted(c.rank for c in again) == sorted(c.rank for c in cards)
    assert str(again) == text
    # canonical text is ascending with T for ten, no separators
    assert list(text) == sorted(text, key=RANK_SYMBOLS.index)
    # spaced and lower-case input reads the same
    spaced = " ".join("10" if ch == "T" else ch.lower() for ch in text)
    assert str(parse_cards(spaced)) == text


@pytest.mark.parametrize(
    "call",
    [
        lambda: parse_cards("3 5", "duel"),
        lambda: Hand.of([Card.from_id(4), Card.from_id(8)], "duel"),
        lambda: dizhu.classify("34567", "duel"),
        lambda: dizhu.legal_moves(parse_cards("3"), variant="duel"),
        lambda: dizhu.legal_moves("4 5", variant="duel"),
        lambda: dizhu.legal_moves("55", previous="33", variant="duel"),
        lambda: dizhu.Action.play(parse_cards("44"), "duel"),
    ],
)
def test_a_rank_outside_the_deck_is_one_error_naming_its_symbol(call):
    """Notation, hands, classification and move lists refuse it alike (RULES.md §1)."""
    with pytest.raises(dizhu.InvalidPlay) as info:
        call()
    err = info.value
    assert err.reason == "not_in_deck" and err.params["variant"] == "duel"
    assert err.params["rank"] in ("3", "4")
    assert str(err) == f"the duel deck has no {err.params['rank']}s"


def test_a_play_from_another_deck_is_refused_by_the_round():
    r = dizhu.Round.deal("duel", seed="deck")
    while r.phase == "bidding":
        r.apply(r.to_act, "pass")
    with pytest.raises(dizhu.InvalidPlay) as info:
        r.apply(r.to_act, dizhu.Action.play("3"))  # built for the classic deck
    assert info.value.params == {"variant": "duel", "rank": "3"}
