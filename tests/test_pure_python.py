"""The pure-Python path still passes: the bots' tests and every doctest, with the compiled
hand split switched off (``DIZHU_PURE_PYTHON=1``; :data:`dizhu.bots.hands.NATIVE` False).

The rest of the suite runs with the compiled split, which is what a built install uses; this
run is what a machine without a C compiler gets.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The tests whose outcome goes through the hand split: the bots, their kernel, the review, the
#: puzzles' verification, the endgame solver, the split itself, and every module's doctests.
SUITE = ["tests/test_bots.py", "tests/test_bots_kernel.py", "tests/test_analysis.py", "tests/test_puzzles.py",
         "tests/test_solve.py", "tests/test_split_native.py", "src/dizhu"]


def test_the_bots_tests_pass_in_pure_python():
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *SUITE],
                         cwd=ROOT, env={**os.environ, "DIZHU_PURE_PYTHON": "1"},
                         capture_output=True, text=True, timeout=280)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "failed" not in run.stdout
