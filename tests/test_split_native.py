"""The compiled hand split (``dizhu.bots._split``) gives the Python split's answer for every hand.

The bots' simulations run the compiled one when it is built (``hands.NATIVE``); the Python one
(``hands._best_python``) is the reference.  ``tools/native_parity.py`` runs the same comparison on
millions of hands; here a few tens of thousands, plus the edges: the memo starting again when
full, bad input, and the switch back to pure Python.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from dizhu.bots import _split, hands
from dizhu.native import pure_python_asked


def test_the_compiled_split_runs_unless_pure_python_is_asked_for():
    # the test set-up compiles it (a C compiler is part of CI's machine): a failed build must show
    assert hands.NATIVE is (not pure_python_asked())
    if hands.NATIVE:
        assert hands._best is _split.best and hands._to_shed is _split.to_shed


def test_pure_python_can_be_asked_for():
    code = ("from dizhu.bots import hands; "
            "print(hands.NATIVE, hands._best is hands._best_python, hands._to_shed is hands._to_shed_python)")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "DIZHU_PURE_PYTHON": "1"},
                         capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True", "True"]


@pytest.mark.parametrize("seed", [1, 2])
def test_the_compiled_split_agrees_with_python_on_seeded_hands(seed, native_parity):
    _split.clear()
    cases = native_parity.split_cases(15_000, seed)
    assert [found for found in (native_parity.split_disagreement(c, n) for c, n in cases) if found] == []


def test_the_answers_read_as_the_python_ones():
    # a straight 3-7 and a lone king: two plays, nothing awkward left; the chain comes first
    c = (1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0)
    assert _split.best(c, 0) == hands._best_python(c, 0) == (2, 0, (1, 0, 4))
    # nothing to take out: the chain is None
    assert _split.best((0,) * 15, 0) == (0, 0, None)
    # a plane's trios carry kickers: capacity 2 carries both singles
    c = (1, 1) + (0,) * 13
    assert _split.best(c, 2) == hands._best_python(c, 2) == (0, 0, None)


def test_to_shed_keeps_the_hand_itself_at_zero_and_nothing_past_its_size():
    c = (1, 0, 1, 0, 0, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0)
    assert _split.to_shed(c, 0) is c
    assert _split.to_shed(c, 6) == _split.to_shed(c, 20) == (0,) * 15 == hands._to_shed_python(c, 6)
    # the 3 and the 5 are set aside, the two pairs played
    assert _split.to_shed(c, 2) == hands._to_shed_python(c, 2) == (0,) * 9 + (2, 2, 0, 0, 0, 0)


def test_the_memo_starts_again_when_full_and_stays_right(native_parity):
    # enough distinct hands to fill the memo more than once (it holds 786,432 splits)
    _split.clear()
    filled = list(native_parity.seeded_hands(120_000, 7))
    held, restarts = 0, 0
    for c in filled:
        for k in range(4):
            _split.best(c, k)
        restarts += _split.entries() < held
        held = _split.entries()
    assert restarts >= 1
    sample = filled[::97]
    assert [_split.best(c, 1) for c in sample] == [hands._best_python(c, 1) for c in sample]


@pytest.mark.parametrize("args, message", [
    (((1,) * 14, 0), "tuple of 15"),
    (([0] * 15, 0), "tuple of 15"),
    (((5,) + (0,) * 14, 0), "0 to 4"),
    (((-1,) + (0,) * 14, 0), "0 to 4"),
    (((0,) * 15, 16), "0 to 15, not 16"),
    (((0,) * 15, -1), "0 to 15, not -1"),
])
def test_bad_input_is_refused_with_a_reason(args, message):
    with pytest.raises(ValueError, match=message):
        _split.best(*args)
    with pytest.raises(ValueError):
        _split.to_shed(args[0], -1 if args[1] < 0 else 21 if args[1] > 15 else args[1])


def test_a_count_that_is_not_a_number_is_refused():
    with pytest.raises(TypeError):
        _split.best(("x",) + (0,) * 14, 0)
    with pytest.raises(TypeError):
        _split.best((0,) * 15)


def test_pure_python_is_asked_for_by_any_value_but_empty_or_zero(monkeypatch):
    for value, asked in (("", False), ("0", False), ("1", True), ("yes", True)):
        monkeypatch.setenv("DIZHU_PURE_PYTHON", value)
        assert pure_python_asked() is asked
