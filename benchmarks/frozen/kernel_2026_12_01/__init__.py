"""The super-hard search kernel as of 2026-12-01 evening (commit eda6685), frozen for benchmarks only.

The simulation code before it was made faster (issue 11, session 19): world sampling,
the reading, the rollouts and the rule policies they run.  ``benchmarks/kernel.py``
times it against the live kernel on the same positions, and the parity test
(tests/test_bots_kernel.py) checks that both give exactly the same estimates.  It imports
only the engine (cards, combos, moves, rules, solve, variants), never ``dizhu.bots``.
Do not edit it (it is the yardstick).
"""
