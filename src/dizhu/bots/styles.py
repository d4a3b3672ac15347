"""How other players may play: the library of styles super-hard reads opponents by.

Each style is a policy over one seat's knowledge (:class:`~dizhu.bots.policy.Ctx`),
the same shape the rule policies use, so a style can be asked "what would you
have played here?" about a past decision (inference, :mod:`dizhu.bots.reading`)
and can play a seat in a rollout.  The library is small on purpose: each style
stands for a way people and programs actually play, and together they span
the usual range from eager to careful.

- ``intermediate``: this package's intermediate level;
- ``normal``: the beginner-friendly level (it sometimes plays at random);
- ``greedy``: answers every opponent's play with its lowest ordinary reply and
  leads its lowest play — it never holds back (many rule bots play so);
- ``cautious``: keeps its 2s and jokers for control, answers only when that costs
  no extra play or the threat is close, lets much go by;
- ``bombs``: throws a bomb at any opponent's play it cannot answer otherwise,
  and answers even at a cost of two extra plays.

>>> sorted(STYLES) == sorted(STYLE_NAMES)
True
"""

from __future__ import annotations

import dataclasses
import random
from types import ModuleType
from typing import Callable, Sequence

from ..combos import Combo, Kind
from ..moves import play_table
from ..native import load
from .memo import replies
from .distilled import FILES, distilled_move, net
from .policy import DEFAULT_STYLE, Ctx, Style, intermediate_move, leads_from_split, normal_move

__all__ = ["STYLES", "STYLE_NAMES", "OWN_STYLES", "PRIOR", "StyleFn", "NATIVE_SPECS", "native_spec", "compiled",
           "COMPILED", "picks", "play", "throws_dice", "twins"]

#: A style: (the seat's knowledge, a random source) -> its play, or None to pass.
StyleFn = Callable[[Ctx, random.Random], "Combo | None"]

#: The careful player's thresholds: no reply that costs an extra play unless the
#: threat is close, 2s and jokers kept for control.
CAUTIOUS = Style(delta1_danger=3, delta1_landlord=False, delta1_duel=False, urgent_need=1,
                 keep_control=True)
#: The eager bomber answers even at two extra plays.
EAGER = Style(delta2_danger=20)


def _intermediate(ctx: Ctx, rng: random.Random) -> Combo | None:
    return intermediate_move(ctx)[0]


def _normal(ctx: Ctx, rng: random.Random) -> Combo | None:
    return normal_move(ctx, rng)[0]


def _greedy(ctx: Ctx, rng: random.Random) -> Combo | None:
    if ctx.last is None:
        return min(leads_from_split(ctx.hand), key=lambda p: (p.is_bomb, p.main, -p.size))
    seat, prev = ctx.last
    if ctx.partner(seat):
        return None
    moves = replies(ctx.hand, prev)
    ordinary = [m for m in moves if not m.is_bomb]
    if ordinary:
        return min(ordinary, key=lambda m: m.main)
    return None


# the thresholds are bound when the style is defined, as its compiled twin's spec is (NATIVE_SPECS)
def _cautious(ctx: Ctx, rng: random.Random, style: Style = CAUTIOUS) -> Combo | None:
    return intermediate_move(ctx, style)[0]


def _bombs(ctx: Ctx, rng: random.Random, style: Style = EAGER) -> Combo | None:
    move = intermediate_move(ctx, style)[0]
    if move is None and ctx.last is not None and not ctx.partner(ctx.last[0]):
        bombs = [m for m in replies(ctx.hand, ctx.last[1]) if m.is_bomb]
        if bombs:
            return min(bombs, key=lambda m: (m.size == 2, m.main))  # the rocket last
    return move


STYLES: dict[str, StyleFn] = {
    "intermediate": _intermediate,
    "normal": _normal,
    "greedy": _greedy,
    "cautious": _cautious,
    "bombs": _bombs,
}
STYLE_NAMES = tuple(STYLES)


def _distilled(ctx: Ctx, rng: random.Random) -> Combo | None:
    return distilled_move(ctx)


#: The styles the search may play its own later moves by (``SearchConfig.own``): the library's,
#: and the distilled policy (:mod:`.distilled`), which reads no one: it is never an opponent's.
OWN_STYLES: dict[str, StyleFn] = {**STYLES, "distilled": _distilled}


def native_spec(policy: str, style: Style = DEFAULT_STYLE) -> tuple[int, ...]:
    """A style as the compiled rollouts take it (``dizhu.bots._rollout``): the policy's number, then
    the thresholds, in ``Style``'s field order — the numbers stay this module's and policy.py's.

    >>> native_spec("greedy")[0], len(native_spec("intermediate", CAUTIOUS))
    (2, 11)
    """
    number = ("intermediate", "normal", "greedy", "bombs", "distilled").index(policy)
    fields = dataclasses.astuple(style)
    if not all(isinstance(f, int) for f in fields):  # bools are ints; a fraction would be cut
        raise TypeError(f"the compiled styles take whole-number thresholds, not {style}")
    return (number, *fields)


#: Each style of the library by its compiled twin's spec: the compiled rollouts play a world only
#: when every seat's style is one of these (any other policy is played in Python).
NATIVE_SPECS: dict[StyleFn, tuple[int, ...]] = {
    _intermediate: native_spec("intermediate"),
    _normal: native_spec("normal"),
    _greedy: native_spec("greedy"),
    _cautious: native_spec("intermediate", CAUTIOUS),
    _bombs: native_spec("bombs", EAGER),
    _distilled: native_spec("distilled"),
}

_native = load("dizhu.bots._rollout")
_native_ready = False
#: Whether the styles run compiled (:func:`compiled`).
COMPILED = _native is not None


def compiled() -> ModuleType | None:
    """The styles compiled (``dizhu.bots._rollout``: whole rollouts, and one decision of several
    styles at once), ready to use; None when the install has no C kernel or pure Python is asked
    for (:mod:`dizhu.native`)."""
    global _native_ready
    if _native is not None and not _native_ready:
        if not hasattr(_native, "set_net"):
            raise RuntimeError("dizhu.bots._rollout was built from older sources: build it again "
                               "(pip install -e . in a checkout)")
        _native.init(play_table(), tuple(Kind))  # what a play is stays the engine's answer
        for players in FILES:
            _native.set_net(*net(players).kernel_args(players))
        _native_ready = True
    return _native


def picks(styles: Sequence[StyleFn], ctx: Ctx, rng: random.Random) -> list:
    """The key of what each of ``styles`` plays at ``ctx`` (None: a pass), compiled when every
    one has a twin there: one decision costs the compiled kernel microseconds and the distilled
    policy in Python a millisecond.  The compiled picks are the Python ones, but for the normal
    style's dice, drawn here as two numbers (tests/test_rollout_native.py); one style without a
    twin (a replaced one, say) sends the whole question to Python.

    >>> from dizhu.bots.view import View
    >>> from dizhu.game import Round
    >>> round_ = Round.deal("duel", seed="pick")
    >>> round_.apply(1, "call"); round_.apply(0, "pass")
    >>> ctx = Ctx.of(View.of(round_.observation(round_.to_act)))
    >>> picks([_distilled], ctx, random.Random(1)) == [distilled_move(ctx).key]
    True
    """
    found = twins(styles)
    if found is not None:
        return _ask(*found, ctx, rng.random(), rng.random())
    return [None if (move := style(ctx, rng)) is None else move.key for style in styles]


def twins(styles: Sequence[StyleFn]) -> "tuple[ModuleType, list] | None":
    """The compiled kernel and the spec of each of ``styles``' twins there, or None when one of them
    has no twin (an unhashable policy has none) or there is no kernel: the one place that decides
    whether the styles play compiled.

    >>> twins([STYLES["greedy"], lambda ctx, rng: None]) is None
    True
    """
    kernel = compiled()
    if kernel is None:
        return None
    try:
        specs = [NATIVE_SPECS.get(style) for style in styles]
    except TypeError:  # an unhashable policy: not one of the library's
        return None
    return None if None in specs else (kernel, specs)


def _ask(kernel: ModuleType, specs: list, ctx: Ctx, u1: float, u2: float) -> list:
    """The keys of what the compiled styles ``specs`` play at ``ctx`` (u1, u2: the normal style's draws)."""
    return kernel.picks(specs, ctx.hand, ctx.seat, ctx.landlord, ctx.cards_left, ctx.last, ctx.unseen,
                        ctx.handicap, u1, u2)


#: The styles that throw dice: their compiled twin draws them apart from Python's ``random``.
_DICE = frozenset({_normal})


def throws_dice(style: StyleFn) -> bool:
    """Whether ``style`` may draw from its random source: the library's normal style, and any policy
    from outside the library (no one knows).

    >>> throws_dice(STYLES["normal"]), throws_dice(STYLES["greedy"]), throws_dice(lambda ctx, rng: None)
    (True, False, True)
    """
    try:
        return style in _DICE or style not in NATIVE_SPECS
    except TypeError:  # an unhashable policy: not one of the library's
        return True


def play(style: StyleFn, ctx: Ctx, rng: random.Random) -> Combo | None:
    """What ``style`` plays at ``ctx``: the same play as ``style(ctx, rng)``, from its compiled twin
    when it has one and throws no dice (the twin takes microseconds, the Python policy tens of
    them); a style that throws dice plays in Python, so ``rng`` is drawn from as it always was.

    >>> from dizhu.bots.view import View
    >>> from dizhu.game import Round
    >>> round_ = Round.deal("classic", seed="play")
    >>> while round_.phase == "bidding":
    ...     round_.apply(round_.to_act, "bid 3" if "bid 3" in round_.legal_actions() else "pass")
    >>> ctx = Ctx.of(View.of(round_.observation(round_.to_act)))
    >>> play(_cautious, ctx, random.Random(1)) is _cautious(ctx, random.Random(1))
    True
    """
    found = None if throws_dice(style) else twins([style])
    if found is None:
        return style(ctx, rng)
    key, = _ask(*found, ctx, 0.0, 0.0)
    return None if key is None else play_table()[key]


#: The neutral mixture before any evidence: no style is ruled out, the one the
#: levels are built on counts most.  It never depends on who the player is.  Not a prior leaning
#: harder on intermediate (0.7): it beat intermediate more often but lost to the 2026-12-01
#: super-hard (0.404 over 120 deals; docs/DECISIONS.md, "The other players").
PRIOR: dict[str, float] = {"intermediate": 0.4, "normal": 0.15, "greedy": 0.15,
                           "cautious": 0.15, "bombs": 0.15}
