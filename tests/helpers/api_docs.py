"""Build the API reference from the docstrings with pdoc; fail on any warning.

    python tools/api_docs.py [OUTPUT_DIR]      (default: build/api)

Every module of the package is documented, those of the extras included, so
the environment needs them all (``pip install -e '.[test]'``).
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pdoc
import pdoc.render

ROOT = Path(__file__).resolve().parents[2]


def modules() -> list[str]:
    """Every module name of the dizhu package, sorted."""
    src = ROOT / "src"
    names = []
    for path in sorted((src / "dizhu").rglob("*.py")):
        parts = path.relative_to(src).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def build(output: Path) -> list[str]:
    """Write the HTML reference to ``output``; the warnings pdoc gave (none is the goal)."""
    import dizhu.web

    # The site's package loads FastAPI only when create_app is first asked for;
    # pdoc reads a module's namespace, so load it into the namespace here.
    vars(dizhu.web)["create_app"] = dizhu.web.create_app
    pdoc.render.configure(docformat="restructuredtext", footer_text="dizhu API reference")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pdoc.pdoc(*modules(), output_directory=output)
    return [f"{w.category.__name__}: {w.message}" for w in caught]


def main() -> int:
    output = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build" / "api"
    problems = build(output)
    for line in problems:
        print(line, file=sys.stderr)
    print(f"API reference: {output / 'index.html'} ({len(modules())} modules, {len(problems)} warnings)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
