"""The action space and the numeric observation of one seat.

Everything a learning agent sees as numbers is defined here, once; the
environments (:mod:`dizhu.env.aec`, :mod:`dizhu.env.seat`) only call it.
docs/ENV.md describes the same layout in prose.

**Actions.**  One fixed enumeration per variant: index 0 is ``pass``, then
the bids (classic: ``bid 1``, ``bid 2``, ``bid 3``; duel: ``call``,
``rob``), then every distinct play of at most 20 cards the variant's deck
allows, taken from the move generator's table (:func:`dizhu.moves.play_table`)
and ordered by number of cards, then by the ranks' counts read as a number
with the highest rank most significant.  The mask of a seat is 1 exactly on
the indices of ``round.legal_actions()`` when that seat is to act.

>>> classic, duel = ActionSpace("classic"), ActionSpace("duel")
>>> len(classic), len(duel)
(24643, 8801)
>>> classic.text(0), classic.text(1), classic.text(4), classic.text(len(classic) - 1)
('pass', 'bid 1', 'play 3', 'play 99TTTJJJQQQKKKAAA22R')
>>> classic.index("play 33344455"), classic.text(classic.index("play 33344455"))
(1766, 'play 33344455')
>>> duel.text(1), duel.text(3), duel.index("play 55")
('call', 'play 5', 16)
>>> duel.index("play 3")
Traceback (most recent call last):
...
ValueError: 'play 3' is not an action of the duel variant

**Observation.**  A flat vector of 0/1 values (``int8``), built only from
what the seat may know (the same facts as ``round.observation(seat)``).
Seats are *relative*: block ``k`` of a per-seat group is the seat ``k``
places after the observer in turn order (0 = the observer itself).  A card
set is a *card plane* of 60 values: for each of the 15 ranks ``3 .. 2, B,
R``, four values, the ``i``-th being 1 when the set holds more than ``i``
cards of that rank (a joker uses only the first).

| block       | size          | content                                                          |
|-------------|---------------|------------------------------------------------------------------|
| hand        | 60            | the observer's cards                                             |
| unseen      | 60            | deck minus own hand minus every played card (the other hands,   |
|             |               | the unrevealed bottom, duel's undealt cards)                     |
| bottom held | 60            | revealed bottom cards the landlord still holds (0 before)        |
| played      | P x 60        | the cards each seat has played                                   |
| to beat     | 60 + P        | the play to beat and who made it (0 when leading or bidding)     |
| history     | 15 x 61       | the last 15 moves of the play, most recent first: a card plane   |
|             |               | and a pass bit                                                   |
| cards left  | P x 21        | one-hot of each seat's card count, 0-20                          |
| landlord    | P             | one-hot (0 during the bidding)                                   |
| to act      | P             | one-hot of the seat to act (0 once the round is over)            |
| phase       | 3             | bidding, playing, over                                           |
| last bid    | P x (B + 1)   | each seat's latest bidding action: none, then the variant's B    |
|             |               | bidding actions (classic: pass, bid 1-3; duel: pass, call, rob)  |
| stake       | 4 or 5        | classic: the highest bid 0-3; duel: robs 0-4 (the handicap)      |
| bombs       | 7             | thermometer of the bombs and rockets played                      |

P is 3 in classic and 2 in duel, so the vector holds 1436 values in
classic and 1346 in duel.

>>> from dizhu import Round
>>> r = Round.deal("classic", seed="encoding-doc")
>>> table = Table(r)
>>> vector = table.encode(0)
>>> vector.shape, vector.dtype.name, int(vector[:60].sum())
((1436,), 'int8', 17)
>>> layout = Layout("classic")
>>> [name for name, _, _ in layout.blocks][:4], layout.size
(['hand', 'unseen', 'bottom held', 'played'], 1436)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..cards import NUM_RANKS
from ..combos import Combo
from ..game import Round
from ..game.actions import PASS, Action, play_action
from ..moves import play_table
from ..variants import Variant, get_variant

__all__ = ["ActionSpace", "Layout", "Table", "HISTORY", "PLANE"]

#: Values in one card plane (15 ranks x 4).
PLANE = NUM_RANKS * 4
#: Moves of the play kept in the observation's history.
HISTORY = 15
_MAX_CARDS = 20
_BOMB_LEVELS = 7

# _THERMO[n] is the four plane values of a rank held n times.
_THERMO = np.array([[1 if n > i else 0 for i in range(4)] for n in range(5)], dtype=np.int8)


def card_plane(counts: Sequence[int]) -> np.ndarray:
    """The 60-value card plane of a rank-count vector.

    >>> card_plane([2] + [0] * 13 + [1])[:8].tolist(), int(card_plane([0] * 14 + [1])[56])
    ([1, 1, 0, 0, 0, 0, 0, 0], 1)
    """
    return _THERMO[np.asarray(counts, dtype=np.intp)].reshape(PLANE)


def _bidding_actions(variant: Variant) -> list[Action]:
    return [Action.parse(text) for text in variant.bidding.every_bid]


class ActionSpace:
    """The fixed enumeration of a variant's actions (see the module docstring)."""

    def __init__(self, variant: "str | Variant") -> None:
        v = get_variant(variant)
        self.variant = v
        table = play_table()
        low = int(v.lowest_rank)
        combos = [c for c in table.values() if not any(c.counts[:low])]
        combos.sort(key=lambda c: (c.size, c.key))
        self.actions: list[Action] = [PASS] + _bidding_actions(v)[1:] + [play_action(c) for c in combos]
        self._by_text = {a.text: i for i, a in enumerate(self.actions)}
        # legal_actions() hands out shared Action objects; plays are found by their key
        self._by_key = {c.key: i for i, c in enumerate(combos, start=len(self.actions) - len(combos))}

    def __len__(self) -> int:
        return len(self.actions)

    def text(self, index: int) -> str:
        """The action text of ``index`` (as ``Round.apply`` accepts it)."""
        return self.actions[index].text

    def index(self, action: "Action | str") -> int:
        """The index of an action or its text; ValueError if the variant has no such action."""
        if isinstance(action, str):
            action = Action.parse(action, "classic")
        if action.kind == "play":
            found = self._by_key.get(action.combo.key)
        else:
            found = self._by_text.get(action.text)
        if found is None:
            raise ValueError(f"{action.text!r} is not an action of the {self.variant.name} variant")
        return found

    def indices(self, actions: Sequence[Action]) -> list[int]:
        """The indices of ``actions`` (a seat's legal actions), in their order."""
        by_key, by_text = self._by_key, self._by_text
        return [by_key[a.combo.key] if a.kind == "play" else by_text[a.text] for a in actions]

    def mask(self, actions: Sequence[Action]) -> np.ndarray:
        """1 on the indices of ``actions`` (a seat's legal actions), 0 elsewhere."""
        out = np.zeros(len(self.actions), dtype=np.int8)
        out[self.indices(actions)] = 1
        return out


class Layout:
    """Where each block of the observation vector starts, for one variant."""

    def __init__(self, variant: "str | Variant") -> None:
        v = get_variant(variant)
        p = v.players
        self.bidding_actions = _bidding_actions(v)
        stake = v.bidding.levels
        sizes = [
            ("hand", PLANE), ("unseen", PLANE), ("bottom held", PLANE), ("played", p * PLANE),
            ("to beat", PLANE + p), ("history", HISTORY * (PLANE + 1)), ("cards left", p * (_MAX_CARDS + 1)),
            ("landlord", p), ("to act", p), ("phase", 3), ("last bid", p * (len(self.bidding_actions) + 1)),
            ("stake", stake), ("bombs", _BOMB_LEVELS),
        ]
        self.blocks: list[tuple[str, int, int]] = []
        start = 0
        for name, size in sizes:
            self.blocks.append((name, start, size))
            start += size
        self.size = start
        self.offset = {name: begin for name, begin, _ in self.blocks}


class Table:
    """The referee's bookkeeping for the numeric observations of one round.

    The environment applies every action through :meth:`apply`, so the table
    follows what the encoding needs besides the round's play state (each seat's
    plays, the bids, the recent moves) without re-reading the round's texts.
    :meth:`encode` then reads, for the observer, only its own hand and public
    facts.
    """

    def __init__(self, round_: Round, layout: Layout | None = None) -> None:
        self.round = round_
        self.variant = round_.variant
        self.layout = layout or Layout(self.variant)
        self._bid_index = {a.text: i for i, a in enumerate(self.layout.bidding_actions)}
        self._start()

    def _start(self) -> None:
        r, p = self.round, self.variant.players
        self._dealt = [list(r.hand(s).counts) for s in range(p)]  # the hands while bidding
        self.played = [[0] * NUM_RANKS for _ in range(p)]
        self.bottom_held = [0] * NUM_RANKS
        # the history block as it stands, most recent move in row 0 (shifted at each move)
        self.history = np.zeros((HISTORY, PLANE + 1), dtype=np.int8)
        self.moves = 0
        self.last_bid: list[int | None] = [None] * p
        if r.landlord is not None:  # dealt with a landlord already: the bottom is public
            self.bottom_held = list(_counts(r.bottom))

    def apply(self, seat: int, action: Action) -> None:
        """Apply ``action`` to the round and record it (the round validates it first)."""
        r = self.round
        bidding = r.phase == "bidding"
        events = len(r.log)
        r.apply(seat, action)
        if bidding:
            if r.log[-1].type == "deal" and len(r.log) > events + 1:  # all passed: re-dealt
                self._start()
                return
            self.last_bid[seat] = self._bid_index[action.text]
            if r.landlord is not None:
                self.bottom_held = list(_counts(r.bottom))
            return
        history = self.history
        history[1:] = history[:-1]
        self.moves += 1
        if action.kind == "pass":
            history[0, :PLANE] = 0
            history[0, PLANE] = 1
            return
        combo = action.combo
        counts = combo.counts
        played = self.played[seat]
        for rank, n in enumerate(counts):
            if n:
                played[rank] += n
        if seat == r.landlord:
            held = self.bottom_held
            for rank, n in enumerate(counts):
                if n and held[rank]:
                    # the landlord's bottom cards are taken first: what stays unknown is the rest
                    held[rank] = max(0, held[rank] - n)
        history[0, :PLANE] = _plane_of(combo)
        history[0, PLANE] = 0

    def encode(self, seat: int) -> np.ndarray:
        """The observation vector of ``seat`` (see the module docstring)."""
        r, v, lay = self.round, self.variant, self.layout
        p = v.players
        off = lay.offset
        out = np.zeros(lay.size, dtype=np.int8)
        state = r.play_state
        hands = self._dealt if state is None else state.hands
        hand = hands[seat]
        every = _NONE if state is None else state.played
        deck = v.deck_counts
        # every card plane at once: hand, unseen, bottom held, played by seat, the play to beat
        counts = hand + [deck[k] - hand[k] - every[k] for k in range(NUM_RANKS)]
        counts += self.bottom_held if r.landlord is not None else _NONE
        for k in range(p):
            counts += self.played[(seat + k) % p]
        last = r.last_play
        counts += last[1].counts if last is not None else _NONE
        planes = (4 + p) * PLANE
        out[:planes] = _THERMO[counts].reshape(planes)
        ones = []
        if last is not None:
            ones.append(planes + (last[0] - seat) % p)
        out[off["history"] : off["history"] + HISTORY * (PLANE + 1)] = self.history.reshape(-1)
        base = off["cards left"]
        for k in range(p):
            ones.append(base + k * (_MAX_CARDS + 1) + sum(hands[(seat + k) % p]))
        if r.landlord is not None:
            ones.append(off["landlord"] + (r.landlord - seat) % p)
        if r.to_act is not None:
            ones.append(off["to act"] + (r.to_act - seat) % p)
        ones.append(off["phase"] + _PHASES[r.phase])
        base, width = off["last bid"], len(lay.bidding_actions) + 1
        for k in range(p):
            bid = self.last_bid[(seat + k) % p]
            ones.append(base + k * width + (0 if bid is None else bid + 1))
        ones.append(off["stake"] + r.bidding_level)
        out[ones] = 1
        bombs = 0 if state is None else state.doublings
        out[off["bombs"] : off["bombs"] + min(bombs, _BOMB_LEVELS)] = 1
        return out


_NONE = (0,) * NUM_RANKS
_PHASES = {"bidding": 0, "playing": 1, "over": 2}
_PLANES: dict[int, np.ndarray] = {}


def _plane_of(combo: Combo) -> np.ndarray:
    """A play's card plane, kept once computed (there are only so many plays)."""
    plane = _PLANES.get(combo.key)
    if plane is None:
        plane = _PLANES[combo.key] = card_plane(combo.counts)
    return plane


def _counts(cards) -> tuple[int, ...]:
    counts = [0] * NUM_RANKS
    for card in cards:
        counts[card.rank] += 1
    return tuple(counts)
