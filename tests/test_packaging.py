"""The library alone: the wheel installed in a fresh virtual environment, without any extra.

Builds the wheel from this checkout, installs it (no dependencies, no index) into a new
environment with no site packages, and runs every doctest of the modules that need no extra,
plus the README's, from the installed copy.  Also: ``dizhu serve`` there says what to install.
"""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CHECK = r'''
import doctest, importlib, importlib.util, pathlib, sys
import dizhu
package = pathlib.Path(dizhu.__file__).parent
assert "site-packages" in str(package), package
for name in ("fastapi", "uvicorn", "numpy", "gymnasium", "pettingzoo", "ray"):
    assert importlib.util.find_spec(name) is None, name + " should not be installed"
EXTRAS = ("dizhu.web", "dizhu.env", "dizhu.ray_arena", "dizhu.rlcard_agent")
attempted = failed = modules = 0
for path in sorted(package.rglob("*.py")):
    parts = path.relative_to(package.parent).with_suffix("").parts
    name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    if name.startswith(EXTRAS):
        continue
    result = doctest.testmod(importlib.import_module(name))
    attempted += result.attempted
    failed += result.failed
    modules += 1
readme = doctest.testfile(sys.argv[1], module_relative=False)
try:
    import dizhu.env
except ImportError as error:
    assert "pip install 'dizhu[rl]'" in str(error), error
else:
    raise AssertionError("dizhu.env imported without the rl extra")
print(modules, attempted + readme.attempted, failed + readme.failed)
'''


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    build = tmp_path_factory.mktemp("build")
    # a copy of the sources, so the build leaves nothing in the checkout
    subprocess.run(["cp", "-r", str(ROOT / "src"), str(ROOT / "pyproject.toml"), str(ROOT / "README.md"), str(build)],
                   check=True)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "-w", str(out), str(build)], check=True, timeout=180)
    (found,) = out.glob("dizhu-*.whl")
    return found


@pytest.fixture(scope="module")
def fresh(tmp_path_factory, wheel) -> Path:
    env = tmp_path_factory.mktemp("venv")
    venv.create(env, with_pip=False, system_site_packages=False)
    python = env / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
                    "--no-deps", "--no-index", str(wheel)], check=True, timeout=180)
    return env


def test_wheel_holds_the_site_and_declares_the_extras(wheel):
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        text = zf.read(metadata).decode()
    assert "dizhu/web/static/index.html" in names and "dizhu/env/encoding.py" in names
    requires = [line for line in text.splitlines() if line.startswith("Requires-Dist:")]
    assert requires and all("extra ==" in line for line in requires), requires
    for extra in ("web", "rl", "ray", "test"):
        assert f"Provides-Extra: {extra}" in text


def test_doctests_pass_from_the_installed_wheel_without_extras(fresh):
    done = subprocess.run([str(fresh / "bin" / "python"), "-c", CHECK, str(ROOT / "README.md")],
                          capture_output=True, text=True, timeout=300, cwd=fresh)
    assert done.returncode == 0, done.stdout + done.stderr
    modules, attempted, failed = map(int, done.stdout.split()[-3:])
    assert failed == 0 and modules >= 20 and attempted >= 100, done.stdout


def test_serve_without_the_web_extra_says_what_to_install(fresh):
    done = subprocess.run([str(fresh / "bin" / "dizhu"), "serve"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "pip install 'dizhu[web]'" in done.stderr


def test_arena_runs_without_any_extra(fresh):
    done = subprocess.run([str(fresh / "bin" / "dizhu"), "arena", "--a", "normal", "--b", "random",
                           "--deals", "3", "--workers", "1", "--quiet"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "normal (A) vs random (B)" in done.stdout
