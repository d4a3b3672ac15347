"""Tests of the computer players by subject (a package, so its modules' names never clash with the other tests')."""
