"""The README's console demo, run as a reader would: every line accepted, to the last move."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_demo() -> tuple[list[str], list[str]]:
    """The demo's lines (the first indented block of "The offline console") and its command."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## The offline console", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"(?:\n {4}\S.*)+", section)
    lines = [line.strip() for line in blocks[0].strip("\n").splitlines()]
    command = next(b for b in blocks if "demo.txt" in b).split()
    return lines, command


def test_the_readme_console_demo_plays_to_its_last_line(tmp_path: Path) -> None:
    lines, command = readme_demo()
    assert lines[0].startswith("alice: /play") and lines[-1] == "alice: /move KH"
    assert command[:4] == [".venv/bin/python", "-m", "bot", "console"] and "--seed" in command
    demo = tmp_path / "demo.txt"
    demo.write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = [demo.name if part == "demo.txt" else part for part in command[1:]]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PARLOUR_", "DISCORD_"))}
    env["PARLOUR_DB"] = str(tmp_path / "demo.sqlite3")
    result = subprocess.run(
        [sys.executable, *args[:-1], str(demo)], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120
    )
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert "refused" not in result.stdout.lower(), result.stdout
    assert "* alice plays K♥." in result.stdout  # the last line was played


def test_the_readme_stands_alone() -> None:
    """No link out of the repository, and every document it names is in it."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "../" not in text and "](http" not in text
    for path in [*re.findall(r"`((?:docs|deploy)/[\w./-]+\.(?:md|yaml|service|env))`", text), "LICENSE", "constraints.txt"]:
        assert (ROOT / path).is_file(), path
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    from games.registry import all_games

    for game in all_games():
        if game.id == "toy":  # a test game some tests register
            continue
        assert f"(`{game.id}`)" in rules, f"docs/rules.md has no section for {game.id}: run python -m tests.docs_rules"
