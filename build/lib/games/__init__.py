"""Parlour's games: pure, deterministic rules with no I/O, asyncio or Discord."""
