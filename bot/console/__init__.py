"""The local console: a group chat in a terminal, on the same table service as Discord.

Each line is a message typed as a named player::

    alice: /play parity
    bob: /join
    alice: /start
    alice: /hand
    bob: /move QS

A line that starts with ``/`` is typed as the last player named. It reads a terminal, a pipe or a
file (one message per line) and stops at the end of input, so whole games can be scripted for
demos, bug reports and tests. Private messages (a hand, a DM) are printed with a ``[to name]``
prefix: in a console everybody at the keyboard can read them.

At a terminal there is a prompt with line editing, history and completion (the standard library's
``readline`` where the platform has it), a notice when it becomes the turn of someone typing here,
and Ctrl-C or Ctrl-D (or ``/quit``) leave at once: lines are read one at a time, when asked, in a
daemon thread of the console's own, so leaving never waits for a line that will not come.
"""

from bot.console.commands import CHANNEL, COMMANDS, GUILD, HELP, Console
from bot.console.notifier import ConsoleNotifier, local_times
from bot.console.run import GOODBYE, WELCOME, Session, run_console, run_terminal
from bot.console.terminal import LineReader, Terminal, is_terminal

__all__ = [
    "CHANNEL",
    "COMMANDS",
    "GOODBYE",
    "GUILD",
    "HELP",
    "WELCOME",
    "Console",
    "ConsoleNotifier",
    "LineReader",
    "Session",
    "Terminal",
    "is_terminal",
    "local_times",
    "run_console",
    "run_terminal",
]
