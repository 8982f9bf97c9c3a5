"""The console drives whole games through typed lines, as a newcomer would."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from bot.console import run_console
from bot.console.commands import GUILD
from bot.service.records import finished_match, record_from_json
from games import advice
from storage import stats
from storage.sessions import Store


async def run_lines(db: Path, lines: list[str]) -> list[str]:
    out: list[str] = []
    await run_console(str(db), io.StringIO("\n".join(lines) + "\n"), out.append)
    return out


async def test_lobby_and_refusals_through_typed_lines(db_path: Path) -> None:
    out = await run_lines(
        db_path,
        [
            "ann: /play toy",
            "bob: /play toy",
            "bob: /start",
            "ann: /start",
            "bob: /join",
            "ann: /move 1",
            "cat: /hand",
            "ann: /frobnicate",
            "just words",
        ],
    )
    text = "\n".join(out)
    assert "Toy Tricks - a table is open" in text
    assert "[to bob] This channel already has a table of Toy Tricks" in text
    assert "[to bob] Only the host can do that." in text
    assert "[to ann] Toy Tricks is for 2, 3 players, not 1." in text
    assert "[to ann] The game has not started yet." in text
    assert "[to cat] You are not playing at this table." in text
    assert "[to ann] There is no /frobnicate command." in text
    assert "Type messages as `name: /command`" in text


async def test_a_whole_match_with_a_bot(db_path: Path) -> None:
    lines = ["ann: /play toy deals=1", "ann: /addbot", "ann: /start"]
    lines += ["ann: /move #1"] * 6  # the bot answers at once; Ann always has a card to play
    out = await run_lines(db_path, lines)
    text = "\n".join(out)
    assert "[to ann] Toy Tricks in your channel" in text  # the DM at the deal
    assert "The match is over" in text
    assert "The table is closed." in text


async def test_moves_by_card_code_and_errors(db_path: Path) -> None:
    out = await run_lines(
        db_path,
        ["ann: /play toy first_dealer=2", "bob: /join", "ann: /start", "ann: /move ZZ", "ann: /move #99", "ann: /move"],
    )
    text = "\n".join(out)
    assert '[to ann] "ZZ" (read as zz) is not an entry that can be made now. For example:' in text
    assert "[to ann] There is no entry #99: the list runs from 1 to" in text
    assert "[to ann] Say what to play: /move followed by a card (KH)" in text


async def test_an_entry_longer_than_the_form_or_with_a_huge_number(db_path: Path) -> None:
    """The reader re-checks the typed form's 200-character limit, so the console gets it too; a
    number of thousands of digits is refused in words, not with "something went wrong"."""
    lines = ["ann: /play parity", "bob: /join", "ann: /start", "ann: /table"]
    lines += ["ann: /move hearts " + "x" * 200, "ann: /move " + "9" * 4_301, "ann: /move 12345678901234", "ann: /table"]
    out = await run_lines(db_path, lines)
    text = "\n".join(out)
    assert "at most 200 characters; this one has 207. Nothing was entered." in text
    assert "this one has 4301. Nothing was entered." in text
    assert '"123456789012..." is too long a number: no entry has more than 9 digits. Nothing was entered.' in text
    assert "something went wrong" not in text.lower()
    tables = [line for line in out if line.startswith("Parity (turn")]
    assert len(tables) >= 2 and tables[-1] == tables[-2]  # the table as it was before the refusals


def test_python_m_bot_console_reads_a_file(tmp_path: Path) -> None:
    script = tmp_path / "game.txt"
    script.write_text("ann: /games\nann: /rules parity\nann: /help\n")
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "console", str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PARLOUR_DB": str(tmp_path / "c.sqlite3"), "PATH": "", "DISCORD_TOKEN": ""},
        cwd=Path(__file__).resolve().parents[2],
    )
    assert proc.returncode == 0, proc.stderr
    assert "Parlour console" in proc.stdout
    assert "/play GAME" in proc.stdout


async def test_records_after_a_finished_match(db_path: Path) -> None:
    lines = ["ann: /play toy deals=1 first_dealer=2", "bob: /join", "ann: /start"]
    lines += ["ann: /move #1", "bob: /move #1"] * 14  # out-of-turn ones are refused; each pair plays one
    lines += ["ann: /leaderboard toy", "ann: /stats ann toy", "ann: /history", "ann: /replay 1", "ann: /export"]
    lines += ["ann: /leaderboard toy fortnight", "ann: /replay 99", "ann: /season"]
    text = "\n".join(await run_lines(db_path, lines))
    assert "The match is over" in text
    assert "Toy Tricks leaderboard - all time" in text and "Provisional:" in text
    assert "ann - Toy Tricks" in text and "Games 1" in text
    assert "#1 Toy Tricks" in text
    assert "Deal 1" in text and "Final scores: ann" in text
    assert "match,game,finished_at" in text
    assert "The period is one of all, season, month, week." in text
    assert "There is no match #99 on this server." in text
    assert "Season 2 begins" in text


async def test_a_refereed_match_through_typed_lines(db_path: Path) -> None:
    from games.registry import register_referee
    from tests.bot.toy_game import TOY

    register_referee(TOY)
    lines = ["ann: /referee toy Ann Bob deals=1 first_dealer=2", "ann: /entries", "bob: /move #1", "ann: /undo", "bob: /undo",
             "bob: /move #1", "ann: /choices 1", "ann: /correct 1 #2", "ann: /correct 9 #1"]
    lines += ["ann: /move #1"] * 14  # Ann enters for both players (once a Knock, the optional act)
    text = "\n".join(await run_lines(db_path, lines))
    assert "Refereeing Toy Tricks." in text
    assert "Entries now:" in text and "For Ann:" in text and "\n      #1 " in text
    assert "[to ann] Only the player who made the last entry, or the host, can undo it." not in text  # Ann hosts
    assert "took back the last entry" in text
    assert "corrected entry 1" in text
    assert "[to ann] There is no entry 9" in text
    assert "The match is over" in text


async def test_refereed_results_with_no_bust_and_a_void_deal(db_path: Path) -> None:
    """Results mode's deal-wide entries typed with /move: a Ninety-Nine deal played out with nobody
    bust, a Jubilee deal void at two players (each entered on the dealer's line, whoever types it)."""
    lines = ["ann: /referee ninety_nine Ann Bob Cy entries=result stock_out=play_out first_dealer=1", "bob: /move played out"]
    text = "\n".join(await run_lines(db_path, lines))
    assert "* Nobody has a card left, so the deal ends and nobody loses a life." in text
    assert "* Deal 2: Bob deals 3 cards each." in text and "Lives: Ann 3, Bob 3, Cy 3" in text
    lines = ["ann: /referee jubilee Ann Bob entries=result first_dealer=1", "bob: /move void", "ann: /move bob: 10"]
    text = "\n".join(await run_lines(db_path.with_name("jubilee.sqlite3"), lines))
    assert "* Nobody holds a black card to open with: the deal is void and the same dealer deals again." in text
    assert "* Deal 2: Ann deals 8 cards each." in text and "Bob scored +10 in deal 2." in text


async def test_admin_settings_defaults_and_log(db_path: Path) -> None:
    out = await run_lines(
        db_path,
        [
            "ann: /settings",
            "ann: /settings dms=off reminder=30",
            "ann: /settings colour=blue",
            "ann: /settings pages=maybe dms=on",
            "ann: /settings pages=on names=off",
            "ann: /defaults toy deals=zero",
            "ann: /defaults toy deals=4",
            "bob: /play toy",
            "ann: /resetrating bob",
            "ann: /adminlog",
        ],
    )
    text = "\n".join(out)
    assert "Hands by DM at each deal: on" in text and "Hands by DM at each deal: off" in text
    assert "Turn reminder: after 30 s" in text
    assert "[to ann] Unknown setting 'colour=blue'" in text
    assert "[to ann] pages= takes on or off, not 'maybe': nothing was changed." in text
    assert text.count("Hands by DM at each deal: on") == 1  # the refused line changed nothing (dms stays off)
    assert "[to ann] Invalid options: deals must be a whole number" in text
    assert "Default options for toy: deals=4" in text
    assert "Deals: 4" in text  # the new table starts with the server's defaults
    assert "bob: 0 rating(s) removed" in text
    assert "settings: turn_reminder_seconds=30; dms_enabled=False" in text
    assert "Pages of record on the web: off" in text and "Pages of record on the web: on" in text
    assert "Pages show members' names: no (neutral labels such as Player 4821)" in text
    assert "settings: pages=True; page_names=False" in text
    assert "default_options[toy]=deals=4" in text and "rating reset" in text


async def test_analyse_writes_the_verdicts_of_a_finished_match(db_path: Path) -> None:
    lines = ["ann: /play wit_and_reason_2", "ann: /addbot", "ann: /start"] + ["ann: /move #1"] * 14  # two races
    out: list[str] = []
    await run_console(str(db_path), io.StringIO("\n".join([*lines, "cat: /analyse match 1 1"]) + "\n"), out.append, seed=3)
    store = await Store.open(db_path)
    try:
        record = record_from_json(finished_match(await stats.match_json(store.conn, GUILD, 1), 1))
    finally:
        await store.close()
    analysis = advice.analyse(record, 1)
    assert analysis is not None and any(v.gave_away for v in analysis.verdicts)
    assert out[-1] == "\n".join(analysis.lines())  # each play that threw the race away, with why, and the tally


def test_a_number_that_is_not_one_is_refused_with_what_was_read() -> None:
    """A match number far too long, or not a number, is refused saying so (nothing else changes)."""
    from bot.console.commands import _number
    from bot.service.model import TableError

    with pytest.raises(TableError, match=r"^There is no match 999999999999\.\.\. \(that number is far too long\)\.$"):
        _number(["9" * 40], "a match number")
    with pytest.raises(TableError, match=r"^Give a match number: 'seven' is not one\.$"):
        _number(["seven"], "a match number")
    with pytest.raises(TableError, match=r"^Give a deal number\.$"):
        _number([], "a deal number")
