"""The compiled kernels: loaded when the install built them, unless switched off.

Two hot paths of the simulations exist in C as well as in Python: legal-move generation
(``dizhu._moves``, for :mod:`dizhu.moves`) and the bots' hand split (``dizhu.bots._split``, for
:mod:`dizhu.bots.hands`).  Each gives its Python twin's answers, in the same order (the tests
and ``tools/native_parity.py`` compare them); the Python code is the reference and runs whenever
the compiled one is missing (no C compiler at install) or ``DIZHU_PURE_PYTHON`` is set (not to ``0``).

>>> load("dizhu.no_such_kernel") is None
True
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

__all__ = ["load", "pure_python_asked", "PURE_PYTHON"]

#: Set (to anything but the empty string or 0) in the environment, the Python code runs everywhere.
PURE_PYTHON = "DIZHU_PURE_PYTHON"


def pure_python_asked() -> bool:
    """Whether ``DIZHU_PURE_PYTHON`` asks for the Python code: any value but empty or ``0``."""
    return os.environ.get(PURE_PYTHON, "") not in ("", "0")


def load(name: str) -> ModuleType | None:
    """The compiled module ``name``, or None: not built, or pure Python asked for."""
    if pure_python_asked():
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None
