"""What several test modules share and the package does not ship: positions, players for the tests only."""
