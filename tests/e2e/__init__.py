"""Browser end-to-end tests (a package, so its conftest never shadows tests/conftest.py)."""
