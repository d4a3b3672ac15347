"""Runs tests/helpers/api_docs.py (its docstring says what it does and how): the tests share its code,
and a test imports no tool."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers.api_docs import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
