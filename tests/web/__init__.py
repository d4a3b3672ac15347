"""Tests of the game server (a package, so its helpers never shadow tests/conftest.py)."""
