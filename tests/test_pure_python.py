"""The pure-Python path still passes: the tests of the rules engine's moves and of the bots, and
every doctest, with the compiled kernels switched off (``DIZHU_PURE_PYTHON=1``, :mod:`dizhu.native`).

The rest of the suite runs with the compiled kernels, which is what a built install uses; this
run is what a machine without a C compiler gets.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The tests whose outcome goes through a compiled kernel: move generation (perft included) and
#: rounds, the bots, their kernel, the review, the puzzles' verification, the endgame solver, the
#: kernels' own parity tests, and every module's doctests.
SUITE = ["tests/test_moves.py", "tests/test_moves_native.py", "tests/test_round_properties.py",
         "tests/bots", "tests/test_bots_kernel.py", "tests/test_bidsearch.py", "tests/test_analysis.py",
         "tests/test_puzzles.py",
         "tests/test_solver.py", "tests/test_split_native.py", "src/dizhu"]


# The suite takes under four minutes on a quiet machine; the limits only stop a hung run, and
# leave room for a shared machine at a third of its speed.
@pytest.mark.timeout(900)
def test_the_bots_tests_pass_in_pure_python():
    run = subprocess.run([sys.executable, "-m", "pytest", "-x", "-p", "no:cacheprovider", *SUITE],
                         cwd=ROOT, env={**os.environ, "DIZHU_PURE_PYTHON": "1"},
                         capture_output=True, text=True, timeout=840)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "failed" not in run.stdout
