"""Endgame puzzles (残局): positions the side to move wins against the best defence."""
