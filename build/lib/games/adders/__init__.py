"""The adding-up games: a running total, card values per game, targets to hit or not to pass."""
