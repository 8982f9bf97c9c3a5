# Over 400 lines: every embed built from views and text (tables, hands, rules pages, help, results), kept together so one reader sees every size limit applied the same way.
"""Discord embeds for tables, hands, rules and help, built only from views and the catalogue.

Everything here is clipped to Discord's limits by :func:`bot.discord.limits.fit_embed`.

Rendering hook: a game's :class:`~games.engine.View` may define ``embed_fields()`` returning
``[(name, value), ...]``; those fields are shown under the table's text. Nothing else here knows
any particular game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.limits import FIELD_VALUE, clip, clip_lines, fit_embed
from bot.discord.plain import plain, plain_lines
from bot.render.records import RATING_HELP
from bot.render.text import option_title, option_value_text, options_text, players_text
from bot.service.model import public_view
from games.engine import Game, View
from games.layout import ordinal
from games.registry import ladder_lines

if TYPE_CHECKING:
    from bot.service.model import HandInfo, Table

LOBBY_COLOUR = discord.Colour.blurple()
PLAY_COLOUR = discord.Colour.green()
OVER_COLOUR = discord.Colour.gold()
CLOSED_COLOUR = discord.Colour.light_grey()
RECENT_SHOWN = 6


def seat_label(table: Table, seat: int) -> str:
    """A seat's name, with a mention for people (mentions in embeds show names, never ping)."""
    s = table.seats[seat]
    if s.bot is not None or s.user_id is None:
        return plain(s.name)
    return f"{plain(s.name)} (<@{s.user_id}>)"


def lobby_embed(table: Table) -> discord.Embed:
    g = table.game
    embed = discord.Embed(
        title=f"{g.title} - a table is open",
        description=(
            f"{players_text(g)} players. Press **Join** to take a seat; the host presses **Start**.\n"
            f"`/rules {g.id}` explains the game."
        ),
        colour=LOBBY_COLOUR,
    )
    seats = []
    for i, s in enumerate(table.seats, 1):
        kind = f" - bot ({s.bot})" if s.bot is not None else ""
        host = " - host" if s.user_id == table.host_id and s.bot is None else ""
        who = plain(s.name) if s.user_id is None or s.bot is not None else f"<@{s.user_id}>"
        seats.append(f"{i}. {who}{kind}{host}")
    embed.add_field(
        name=f"Seats ({len(table.seats)}/{g.max_players})", value=clip_lines(seats, FIELD_VALUE), inline=False
    )
    opts = options_text(g, table.options)
    if opts:
        embed.add_field(name="Options", value=clip_lines(opts, FIELD_VALUE, keep="start"), inline=False)
    embed.set_footer(text=f"Table #{table.id}")
    return fit_embed(embed)


def table_embed(table: Table, entries: Sequence[str] = (), *, pictured: bool = False) -> discord.Embed:
    """The table message: the lobby, the public view during play, or the final result. Every
    fact is said once: the scores in one line (in the ranking at the end), whose turn it is in
    "To play", and "Recent" without what the lines above already say. ``entries`` (referee mode)
    are the last entries with their status. With a picture of the table beside it (``pictured``),
    laid-out text such as a grid is left to the picture (and its description)."""
    if table.state is None:
        return (
            lobby_embed(table)
            if table.status == "lobby"
            else closed_embed(table, "This table was cancelled.")
        )
    state = table.state
    view = public_view(table)
    over = state.is_over
    referee = table.mode == "referee"
    if pictured and not referee:
        return _pictured_embed(table, view)
    lines = view.text_lines()
    heading, body = lines[0], lines[1:]
    notes = set(view.outcome.notes) if over and view.outcome is not None else set()
    body = [
        line
        for line in body
        if not line.startswith(WAITING) and line not in notes and not (over and is_scores(line))
    ]
    embed = discord.Embed(
        title=clip(f"{table.game.title} - {'final result' if over else plain(heading)}", 256),
        description=clip(_as_markdown(body, grids=not pictured), 4096),
        colour=OVER_COLOUR if over else PLAY_COLOUR,
    )
    _add_hook_fields(embed, view)
    shown = set(body)
    if over and view.outcome is not None:
        result = result_lines(table, view)
        shown |= set(result)
        embed.add_field(name="Result", value=clip_lines(result, FIELD_VALUE, keep="start"), inline=False)
        if table.unrated:
            embed.add_field(
                name="Unrated", value=clip(", ".join(sorted(table.unrated)), FIELD_VALUE), inline=False
            )
    elif view.awaiting:
        embed.add_field(
            name="Next entry for" if referee else "To play",
            value=clip(", ".join(seat_label(table, s) for s in view.awaiting), FIELD_VALUE),
            inline=False,
        )
    if entries:
        embed.add_field(name="Entries", value=clip_lines(plain_lines(list(entries)), FIELD_VALUE), inline=False)
    recent = [
        plain(e.text) for e in table.recent[-RECENT_SHOWN:] if e.text not in shown and not is_scores(e.text)
    ]
    if recent:
        embed.add_field(name="Recent", value=clip_lines(recent, FIELD_VALUE), inline=False)
    footer = f"Table #{table.id} - {'entry' if referee else 'turn'} {state.turn}"
    if not over:
        footer += (
            " - Make an entry or Type an entry for what happened; Confirm or Undo the last one"
            if referee
            else " - Show my hand: your cards and choices, kept up to date"
        )
    elif referee and table.status == "playing":  # the result waits for the last entry's confirmation
        footer += " - Confirm the last entry to record the result, or Undo it"
    embed.set_footer(text=footer)
    return fit_embed(embed)


WAITING = "Waiting for:"
NEWS_LENGTH = 160
"""The most characters of a pictured table message's news line (the last one or two events)."""


def _pictured_embed(table: Table, view: View) -> discord.Embed:
    """The table message beside its picture, which shows the state of play (and describes it in
    its alt text): the heading, the news of the last move in one line, whose turn it is (or the
    final places and the match's notes), each said once."""
    over = view.over
    heading = view.text_lines()[0]
    lines = [news] if (news := news_line(table)) else []
    if view.awaiting and not over:
        lines.append("**To play:** " + ", ".join(seat_label(table, s) for s in view.awaiting))
    embed = discord.Embed(
        title=clip(f"{table.game.title} - {'final result' if over else plain(heading)}", 256),
        description=clip("\n".join(lines), 4096),
        colour=OVER_COLOUR if over else PLAY_COLOUR,
    )
    if over and view.outcome is not None:
        result = result_lines(table, view)
        embed.add_field(name="Result", value=clip_lines(result, FIELD_VALUE, keep="start"), inline=False)
    if over and table.unrated:
        embed.add_field(name="Unrated", value=clip(", ".join(sorted(table.unrated)), FIELD_VALUE), inline=False)
    embed.set_footer(text=f"Table #{table.id} - turn {table.turn}")
    return fit_embed(embed)


def news_line(table: Table) -> str:
    """The news of the last move in one line: the last public event, with the one before it
    when both fit (a trick's last card and who won it), never a line of scores only."""
    events = [plain(e.text) for e in table.recent if not is_scores(e.text) and e.kind != "match_over"][-2:]
    if len(events) == 2 and len(events[0]) + len(events[1]) + 1 > NEWS_LENGTH:
        events = events[1:]
    return clip(" ".join(events), NEWS_LENGTH)


def is_scores(line: str) -> bool:
    """A line that only gives the running or final scores (shown once elsewhere)."""
    return line.startswith(("Scores:", "Scores ", "Final scores", "Totals:"))


def _as_markdown(lines: Sequence[str], grids: bool = True) -> str:
    """Lines for an embed: runs of lines laid out with spaces (a grid) go in a code block, so
    they keep their columns in Discord's proportional font (or are left out, ``grids=False``).
    Other lines are shown literally (:func:`plain`: they may hold names); a grid cannot close
    its code block."""
    out: list[str] = []
    grid: list[str] = []
    for line in [*lines, ""]:
        if line.startswith("  ") or (grid and line.startswith(" ")):
            grid.append(line)
            continue
        if grid and grids:
            out.append("```\n" + "\n".join(g.replace("`", "'") for g in grid) + "\n```")
        grid = []
        if line:
            out.append(plain(line))
    return "\n".join(out)


def closed_embed(table: Table, text: str) -> discord.Embed:
    embed = discord.Embed(title=f"{table.game.title} - closed", description=text, colour=CLOSED_COLOUR)
    if table.state is not None:
        view = table.state.view(None)
        embed.add_field(
            name="Scores",
            value=clip(
                ", ".join(f"{plain(p)} {s}" for p, s in zip(view.players, view.scores, strict=True)), FIELD_VALUE
            ),
        )
    embed.set_footer(text=f"Table #{table.id}")
    return fit_embed(embed)


def result_lines(table: Table, view: View) -> list[str]:
    """The final places, best first: ``1st Ann - 34``; a shared place is ``2nd=`` for each player
    sharing it (never Markdown's ``1.``, which Discord renumbers as a list)."""
    outcome = view.outcome
    assert outcome is not None
    order = sorted(range(len(view.players)), key=lambda s: (outcome.ranks[s], s))
    shared = {r for r in outcome.ranks if outcome.ranks.count(r) > 1}
    lines = [
        f"{ordinal(outcome.ranks[s])}{'=' if outcome.ranks[s] in shared else ''} {seat_label(table, s)} - {outcome.scores[s]}"
        for s in order
    ]
    return lines + [plain(note) for note in outcome.notes if not is_scores(note)]


def hand_embed(table: Table, info: HandInfo, status: str | None = None, *, pictured: bool = False) -> discord.Embed:
    """A player's private view (in an ephemeral message), with what they may do now. ``status``
    is a note on their last click; "Your turn." when the bot brought the view up to date."""
    view = info.view
    referee = table.mode == "referee"
    mine = info.seat in view.awaiting
    lines = [line for line in view.text_lines() if not line.startswith(WAITING)]
    if not referee and not mine and not view.over and table.state is not None:
        lines = _private_lines(lines, info.public or table.state.view(None))
    embed = discord.Embed(
        title=f"{'Entries' if referee else 'Your hand' if view.hand else 'Your view'} - {table.game.title}",
        description=clip(_as_markdown(lines, grids=not pictured), 4096),
        colour=PLAY_COLOUR,
    )
    _add_hook_fields(embed, view)
    private = [plain(e.text) for e in info.private_events]
    if private:
        embed.add_field(name="Just for you", value=clip_lines(private, FIELD_VALUE), inline=False)
    if info.legal and referee:
        you = "Enter what just happened at the table, for whichever player it was (or Type an entry)."
    elif info.legal:
        you = "Your turn: choose below." if mine else "You may act out of turn: choose below."
    elif info.ready:
        you = READY_HAND
    elif view.over:
        you = "The match is over."
    else:
        you = NOT_YOUR_TURN
    if status == "Your turn.":
        status = None  # said in "Your move"
    embed.add_field(name="Next entry" if referee else "Your move", value=clip(you, FIELD_VALUE), inline=False)
    if status:
        embed.add_field(name="Note", value=clip(plain(status), FIELD_VALUE), inline=False)
    # a view kept while others play does not say at which turn it was drawn: the table moves on
    embed.set_footer(text=f"Table #{table.id}" + (f" - turn {info.turn}" if info.legal or view.over else ""))
    return fit_embed(embed)


NOT_YOUR_TURN = "Not your turn: the table message shows the play. This view updates itself when your turn comes."
"""A waiting player's view: it names nobody (whose turn it is changes without redrawing it)."""
READY_HAND = (
    "Play when the table message shows it is your turn. These were your choices when this view was last "
    "updated; if they have changed by your turn, it updates itself."
)
"""A ready hand (a waiting player's view offering what they could play): true before their turn and
during it, since it is kept when their turn comes with the same choices."""


def _private_lines(lines: Sequence[str], public: View) -> list[str]:
    """A waiting player's view keeps only what the table message does not show (their hand,
    what only they know): the rest changes with every move, and the view is redrawn only when
    their choices change, so it would soon be out of date."""
    shown = set(public.text_lines())
    return [line for line in lines if line not in shown]


def _add_hook_fields(embed: discord.Embed, view: View) -> None:
    hook = getattr(view, "embed_fields", None)
    if not callable(hook):
        return
    for name, value in hook():
        embed.add_field(name=clip(str(name), 256), value=clip(str(value), FIELD_VALUE), inline=False)


# -- the catalogue -------------------------------------------------------------------------------


RULES_PAGE = 1800
"""About how many characters of rules the first page of /rules shows (the rest a click away)."""
RULES_PAGES = {"rules": "How to play", "more": "More rules", "options": "Options", "bots": "Bot levels"}
"""The pages of /rules, by key, with their buttons' labels."""


def reflow(text: str) -> list[str]:
    """A game's rules as paragraphs without the source's line breaks: a paragraph's lines are
    joined into one, and a ``* `` bullet starts a line of its own (its indented continuation
    joins it)."""
    paragraphs: list[str] = []
    for block in text.strip().split("\n\n"):
        items: list[str] = []
        for line in block.splitlines():
            stripped = line.strip()
            if not stripped:
                continue
            if stripped.startswith(("* ", "- ")) or not items:
                items.append(stripped)
            else:
                items[-1] += " " + stripped
        if items:
            paragraphs.append("\n".join(items))
    return paragraphs


def rules_parts(game: Game[Any]) -> tuple[str, str]:
    """The rules in two parts: the first paragraphs up to about :data:`RULES_PAGE` characters
    (at least one), and the rest."""
    paragraphs = reflow(game.summary)
    first: list[str] = []
    while paragraphs and (not first or len("\n\n".join([*first, paragraphs[0]])) <= RULES_PAGE):
        first.append(paragraphs.pop(0))
    return "\n\n".join(first), "\n\n".join(paragraphs)


RULES_ONE_PAGE = 2000
"""Rules that fit in this many characters with their options and bot levels are one page."""


def rules_page_keys(game: Game[Any]) -> list[str]:
    """The pages /rules has for ``game``: one, "all", if everything fits in
    :data:`RULES_ONE_PAGE` characters; otherwise "rules" and those of the others with anything
    on them."""
    if len(rules_embed(game, "all")) <= RULES_ONE_PAGE:
        return ["all"]
    keys = ["rules"]
    if rules_parts(game)[1]:
        keys.append("more")
    if game.option_fields():
        keys.append("options")
    if ladder_lines(game.id):
        keys.append("bots")
    return keys


def rules_embed(game: Game[Any], page: str | None = None) -> discord.Embed:
    """One page of a game's rules (by default the first): all of them on one page, or how to play,
    the rest of the rules, its options with their standard values, or its bots' levels."""
    page = page or rules_page_keys(game)[0]
    first, rest = rules_parts(game)
    embed = discord.Embed(title=f"{game.title} ({players_text(game)} players)", colour=LOBBY_COLOUR)
    if page == "all":  # short enough for one page: the rules, the options and the bot levels
        embed.description = clip("\n\n".join(reflow(game.summary)), 4096)
    if page == "more":
        embed.title = f"{game.title} - more rules"
        embed.description = clip(rest, 4096)
    elif page in ("options", "all"):
        if page == "options":
            embed.title = f"{game.title} - options"
        for f in game.option_fields():
            choices = f"; one of {', '.join(f.choices)}" if f.choices else ""
            standard = option_value_text(f.name, f.default)
            embed.add_field(
                name=clip(f"{option_title(game, f.name)}: {standard} as standard", 256),
                value=clip(f"{f.description or '-'} (`{f.name}=`{choices})", FIELD_VALUE),
                inline=False,
            )
    if page == "bots":
        embed.title = f"{game.title} - bot levels"
        embed.description = clip("\n".join(ladder_lines(game.id)), 4096)
    elif page == "all" and ladder_lines(game.id):
        embed.add_field(name="Bot levels", value=clip("\n".join(ladder_lines(game.id)), FIELD_VALUE), inline=False)
    elif page == "rules":
        embed.description = clip(first, 4096)
    embed.set_footer(
        text=f"Open a table: /play {game.id}  (options: /play {game.id} options: name=value ...)"
    )
    return fit_embed(embed)


def games_embed(games: Sequence[Game[Any]]) -> discord.Embed:
    lines = [f"**{g.title}** - `{g.id}` - {players_text(g)} players" for g in games]
    embed = discord.Embed(
        title="Games",
        description=clip_lines(lines or ["No games are available."], 4096, keep="start"),
        colour=LOBBY_COLOUR,
    )
    embed.set_footer(text="/rules GAME explains one; /play GAME opens a table in this channel.")
    return fit_embed(embed)


HELP_LINES = [
    ("/play game [options]", "Open a table in this channel (one per channel). Options are name=value pairs."),
    ("/games, /rules game", "The catalogue, and one game's rules and options."),
    ("/table", "Post the table message again at the bottom of the channel."),
    ("/hand", "Your cards and your choices, only for you (the same as Show my hand)."),
    ("/leave", "Leave the lobby, or hand your seat in a game to a bot."),
    ("/abandon", "End the game here (the host, or anyone who may manage messages)."),
    ("/hint, /analyse [deal] [match]", "Advice for your choice where the host allowed hints (the match is "
     "then unrated); a finished deal set against perfect play, where the game offers it."),
    ("/referee game players [options]", "Playing with real cards? I keep the score and check each entry: "
     "Make an entry, Confirm, Undo on the table message; the host fixes a past entry with /correct."),
    ("/leaderboard [game] [period], /stats [member] [game] [versus]", "This server's ratings (all time, "
     "this season, the last 30 or 7 days); a member's games, wins, scores, rating chart and head-to-head."),
    ("/history [member] [channel], /replay match, /export [match]", "Recent matches; one match's events deal "
     "by deal; the server's results as CSV, or one match's full record as JSON."),
    ("/admin season new, /admin rating reset, /admin settings, /admin log", "For members who may manage the "
     "server: seasons, rating resets (asks first), turn timers, DMs, referee confirmation, channels, default "
     "options per game; every change is logged with who made it."),
]


def help_embed() -> discord.Embed:
    embed = discord.Embed(
        title="Parlour - card games at your table",
        description=(
            "Open a table with /play, gather players with the Join button, and start. The table "
            "message shows the game to everyone; at the start your cards and choices appear below it, "
            "seen only by you (its Show my hand button opens them again), and I keep them up to date "
            "while they are open (Discord lets me for 15 minutes; then press it again). When a deal "
            "starts and your view is not open, I "
            "DM you your new hand, in the games that have hidden hands (not Spec nor Wit and Reason "
            "(II), where every card is in view); when your turn comes, I mention you unless your "
            "view is open. Old buttons are refused politely: press Show my hand again for the "
            "current ones."
        ),
        colour=LOBBY_COLOUR,
    )
    for name, value in HELP_LINES:
        embed.add_field(name=name, value=value, inline=False)
    embed.add_field(name="Ratings", value=RATING_HELP, inline=False)
    return fit_embed(embed)


def options_embed(table: Table, names: Sequence[str]) -> discord.Embed:
    """The host's option menu: the current value and description of each option on this page."""
    fields = {f.name: f for f in table.game.option_fields()}
    values = table.options.model_dump(mode="json")
    embed = discord.Embed(
        title=f"Options - {table.game.title}",
        description="Choose new values below; the lobby message shows them to everyone.",
        colour=LOBBY_COLOUR,
    )
    for name in names:
        f = fields[name]
        embed.add_field(
            name=clip(f"{option_title(table.game, name)}: {option_value_text(name, values.get(name))}", 256),
            value=clip(f.description or "-", FIELD_VALUE),
            inline=False,
        )
    embed.set_footer(text=f"Table #{table.id}")
    return fit_embed(embed)
