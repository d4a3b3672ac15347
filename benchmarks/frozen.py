"""Old bots kept as git tags: checked out into a temporary worktree and imported from there.

    python benchmarks/frozen.py                 # which tags this clone has, and a smoke test of each

A benchmark that measures today's bots against a yardstick needs a yardstick that does not move:
the code of a past commit, named by a lightweight tag of this repository.

- ``frozen-superhard-2026-12-01`` (d6c2742): super-hard as of 2026-12-01, bidding and play
  (``benchmarks/matchup.py --b frozen-super-hard``, ``bots.py``, ``predict.py``);
- ``frozen-kernel-2026-12-01`` (eda6685): the search's simulation kernel before it was made
  faster (``benchmarks/kernel.py``).

:func:`load` checks the tag out (``git worktree add --detach``) into a temporary directory, which
is removed when the process that made it exits; builds the C extensions in place if the tag's
``pyproject.toml`` declares any (setuptools' ``build_ext --inplace``, the build ``pip install -e .``
runs; they are optional there, so a failed build leaves the Python code running); and imports the
tag's ``src/dizhu`` under another name (``dizhu_frozen_superhard_2026_12_01``...) beside today's
``dizhu``.  The old package imports its own modules relatively, so it runs whole on the engine of
its day (the copies this replaces ran on today's engine; the rules are the same).  Load before
forking workers: they inherit the import, and only the process that made the worktree removes it.

A clone without the tags (``git clone --no-tags``, a shallow or single-branch checkout) is sent to
fetch them (``git fetch --tags``, with ``--unshallow`` from a shallow clone); when that fails the
benchmark stops and names the missing tag and its commit.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib
import importlib.util
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

SUPER_HARD = "frozen-superhard-2026-12-01"
KERNEL = "frozen-kernel-2026-12-01"
#: Each tag and the commit it must name (for the message when the tag is missing).
TAGS = {
    SUPER_HARD: "d6c2742636b203a4ec14f03b31ebd6db403ff4f1",
    KERNEL: "eda66857e1c4b784c22ce629ae47e5c9baa937eb",
}

_worktrees: dict[str, Path] = {}


class MissingTag(SystemExit):
    """The tag is not in this clone and could not be fetched."""


def _git(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=check)


def has_tag(tag: str) -> bool:
    return _git("rev-parse", "--verify", "--quiet", f"refs/tags/{tag}^{{commit}}", check=False).returncode == 0


def ensure_tag(tag: str) -> None:
    """The tag is here, fetched if need be; else :class:`MissingTag`, saying how to get it."""
    if has_tag(tag):
        return
    remotes = _git("remote", check=False).stdout.split()
    tried = []
    for remote in remotes[:1] or []:
        shallow = _git("rev-parse", "--is-shallow-repository", check=False).stdout.strip() == "true"
        command = ["fetch", "--quiet", "--tags", *(["--unshallow"] if shallow else []), remote]
        print(f"frozen: tag {tag} missing, trying git {' '.join(command)}", file=sys.stderr)
        done = _git(*command, check=False)
        tried.append(f"git {' '.join(command)}: {(done.stderr or 'no such tag there').strip()}")
        if has_tag(tag):
            return
    raise MissingTag(
        f"frozen: the git tag {tag} (commit {TAGS.get(tag, '?')[:12]}) is not in this clone"
        + (f" ({'; '.join(tried)})" if tried else " (no remote to fetch it from)")
        + f".  Fetch the tags (git fetch --tags origin; from a shallow clone add --unshallow), or make it "
        f"if the commit is here: git tag {tag} {TAGS.get(tag, 'COMMIT')}")


def checkout(tag: str) -> Path:
    """A worktree of ``tag`` (made once per process, removed when that process exits)."""
    if tag in _worktrees:
        return _worktrees[tag]
    ensure_tag(tag)
    _git("worktree", "prune", check=False)
    path = Path(tempfile.mkdtemp(prefix=f"dizhu-{tag}-"))
    _git("worktree", "add", "--detach", "--quiet", str(path), f"refs/tags/{tag}")
    owner = os.getpid()

    def remove() -> None:
        if os.getpid() == owner:  # not in a forked worker
            _git("worktree", "remove", "--force", str(path), check=False)
            shutil.rmtree(path, ignore_errors=True)
            _git("worktree", "prune", check=False)

    atexit.register(remove)
    _build(path)
    _worktrees[tag] = path
    return path


def _build(path: Path) -> None:
    """The tag's C extensions, built in place when it declares any (optional: Python runs without)."""
    pyproject = path / "pyproject.toml"
    declared = pyproject.exists() and "ext-modules" in pyproject.read_text(encoding="utf-8")
    if not declared and not (path / "setup.py").exists():
        return
    command = ([sys.executable, "setup.py"] if (path / "setup.py").exists()
               else [sys.executable, "-c", "from setuptools import setup; setup()"])
    done = subprocess.run([*command, "build_ext", "--inplace"], cwd=path, capture_output=True, text=True)
    if done.returncode != 0:
        print(f"frozen: the C extensions of {path.name} did not build; its Python code runs\n"
              f"{done.stderr[-2000:]}", file=sys.stderr)


def alias(tag: str) -> str:
    """The name the tag's ``dizhu`` package is imported under."""
    return "dizhu_" + tag.replace("-", "_")


def load(tag: str) -> ModuleType:
    """The tag's ``dizhu`` package, imported from its worktree under :func:`alias`."""
    name = alias(tag)
    if name in sys.modules:
        return sys.modules[name]
    package = checkout(tag) / "src" / "dizhu"
    spec = importlib.util.spec_from_file_location(name, package / "__init__.py",
                                                  submodule_search_locations=[str(package)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    table = getattr(importlib.import_module(f"{name}.moves"), "play_table", None)
    if table is not None:  # built now, as the benchmarks build today's before they time anything
        table()
    return module


def module(tag: str, name: str) -> ModuleType:
    """One module of the tag's package, e.g. ``module(KERNEL, "bots.search")``."""
    load(tag)
    return importlib.import_module(f"{alias(tag)}.{name}")


def superhard_steps_per_second() -> int:
    """The frozen super-hard's simulated decisions per second of budget (for ``--steps``)."""
    return module(SUPER_HARD, "bots.search").STEPS_PER_SECOND


class FrozenSuperHard:
    """Super-hard as it played on 2026-12-01 (bidding and play): ``decide(observation) -> action``.

    Seeded from the seed and the position, as the copy kept in the tree until 2026-12 was."""

    def __init__(self, seed: Any = None, budget: float | None = None) -> None:
        self.seed = seed
        self.budget = budget
        self._bidding = module(SUPER_HARD, "bots.bidding")
        self._search = module(SUPER_HARD, "bots.search")
        self._view = module(SUPER_HARD, "bots.view").View

    def decide(self, observation: dict[str, Any]) -> str:
        material = repr((self.seed, observation["hand"], observation["history"], observation["bids"],
                         observation["to_act"], observation["phase"])).encode()
        rng = random.Random(int.from_bytes(hashlib.sha256(material).digest()[:8], "big"))
        view = self._view.of(observation)
        if view.phase == "bidding":
            return self._bidding.decide_bid(view, "super-hard", rng).action
        return self._search.search_move(view, rng, self.budget).action


def main() -> None:
    sys.path.insert(0, str(ROOT / "src"))
    from dizhu import Round

    for tag, commit in TAGS.items():
        print(f"{tag}: {'here' if has_tag(tag) else 'missing'} (commit {commit[:12]})")
    round_ = Round.deal("duel", seed="frozen")
    bot = FrozenSuperHard(seed=1, budget=0.05)
    while round_.result is None:
        round_.apply(round_.to_act, bot.decide(round_.observation(round_.to_act)))
    print(f"{SUPER_HARD}: played a duel round against itself, from {checkout(SUPER_HARD)}")
    search = module(KERNEL, "bots.search")
    print(f"{KERNEL}: {search.__name__} from {search.__file__}, STEPS_PER_SECOND {search.STEPS_PER_SECOND}")


if __name__ == "__main__":
    main()
