"""Referee mode: games played with real cards, entered into the bot as they happen.

A referee game is an ordinary :class:`~games.engine.Game` whose actions are *entries* ("Ann bid
the Q♥", "the tricks were 4, 5 and 2", "Bob played the 7♣"), so it replays, persists and renders
like any other game. It knows no hidden cards: it checks what can be checked from the entries
(totals that must add up, a card already played, a suit not followed, a claim after its window)
and scores with the very functions the online game uses.

Each module ``games/referee/<game id>.py`` defines ``GAME`` with the same id as the online game.
At a referee table any seated member may enter for any awaited seat; the table service adds
confirmation, undo of the last entry and corrections by the host.
"""
