"""Print ``docs/rules.md``: every game's rules summary and options as the bot gives them.

    .venv/bin/python -m tests.docs_rules > docs/rules.md
"""

from __future__ import annotations

from games.__main__ import _players_text
from games.registry import all_games

HEADER = """# How Parlour reads the rules

Each game's rules summary as the bot gives it (`/rules`, `python -m games rules ID`, which adds
the bot ladder), in our own words. The games come from old card-game texts; some of those texts are
complete, some are damaged or silent on a point. Where a text was silent or open we chose what a
fair referee would, and each summary says so in place; where the rules name a variant, it is an
option a table's host chooses (`/play GAME name=value`), listed under each game with its default
(the standard rules). What the sources did not cover at all and we reconstructed:

- Costly Colours: the start of the deal (three cards each, the turned-up deck card as trumps, the
  heels for a turned Jack or Two, mogging and refusal), from the game's descriptions elsewhere.
- Wit and Reason (II): the whole game, the classic game to 31 on a 24-card pack.
- Fifty-One: what happens when the stock runs out; Jubilee: the card values (the old text's total
  of the pack is wrong: it is 217).

Regenerate this file after changing a summary: `.venv/bin/python -m tests.docs_rules > docs/rules.md`.
"""


def rules_page() -> str:
    out = [HEADER]
    for g in all_games():
        if g.id == "toy":  # a test game, only there when a test registered it
            continue
        out.append(f"\n## {g.title} (`{g.id}`), {_players_text(g.player_counts)} players\n\n")
        out.append(g.summary.strip() + "\n")
        fields = g.option_fields()
        if fields:
            out.append("\nOptions (name=value, with the default):\n\n")
            for f in fields:
                choices = f" [{'|'.join(f.choices)}]" if f.choices else ""
                out.append(f"- `{f.name}={f.default}`{choices}: {f.description}\n")
    return "".join(out)


if __name__ == "__main__":
    print(rules_page(), end="")
