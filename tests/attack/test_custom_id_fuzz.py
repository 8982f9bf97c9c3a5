"""Forged component interactions through the simulated Discord, by the hundred.

A real Parity table with Ann and Bob seated; then custom ids taken from the table message and from
the players' own hands, mutated at random (another session, turn or index, truncated, an extra
field, other scripts' characters, very long, another prefix or verb, the other kind of component,
menus with forged values), sent by members seated and not seated. For every one:

* it is answered (Discord would otherwise show "This interaction failed");
* nothing is logged at ERROR and no exception escapes the bot;
* the stored actions, the table's state and the public table message are exactly as before,
  unless the forged id happens to be a legal click of the current turn by the player to move
  (then the game simply goes on, and the fuzz carries on from the new turn).
"""

from __future__ import annotations

import logging
import os
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
import simcord

from bot.discord.messages import public_labels
from tests.attack.conftest import AttackWorld
from tests.attack.support import answered, open_table, snapshot
from tests.bot.discord.conftest import custom_ids, raw_component, response

VERBS = [
    "lobby", "hand", "act", "pick", "nav", "pub", "opt", "optpage", "optnum", "addbot", "ref",
    "page", "reset", "form", "bogus", "",
]  # fmt: skip
ODD_NUMBERS = [
    "-1", "01", "00", "1e3", "", " 1", "+1", "0x1", "１", "٣", "NaN", str(2**63 - 1), str(2**63),
    "9" * 19, "9" * 30, "9" * 200, "9" * 5000,
]  # fmt: skip
ODD_CHARS = ["\u200b", "é", "🂡", "\x00", "\n", "İ", "ß", "：", "\ufeff", "\u202e", "%s", "{}", "\\"]
ODD_VALUES = [
    "", "a", "g", "a-1", "a²", "a１", "a٣", "a01", "a 0", "a0 ", "A0", "x0", "true", "false", "null",
    "a" + "9" * 20, "a" + "9" * 5000, "g" + "9" * 5000, "g-1", "🂡", "a0\x00",
]  # fmt: skip
PREFIXES = ["Parlour", "PARLOUR", "parlour2", "parlor", "", "xparlour", "parlour:parlour", " parlour"]


@dataclass
class Target:
    """A message to click on, and who may click there (``None``: anyone in the channel)."""

    message_id: int
    owner: simcord.MemberActor | None
    ephemeral: bool


@dataclass
class Figures:
    tried: int = 0
    unanswered: int = 0
    unhandled: int = 0
    changed_on_refusal: int = 0
    legal_offered: int = 0
    legal_applied: int = 0
    tables: int = 0
    by_mutation: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (
            f"inputs tried: {self.tried}; unanswered: {self.unanswered}; unhandled errors: {self.unhandled}; "
            f"state changes on refusal: {self.changed_on_refusal}; legal clicks forged: {self.legal_offered}, "
            f"applied: {self.legal_applied}; tables opened: {self.tables}"
        )


class Fuzzer:
    def __init__(self, world: AttackWorld, rng: random.Random, caplog: pytest.LogCaptureFixture) -> None:
        self.world = world
        self.rng = rng
        self.caplog = caplog
        self.figures = Figures()
        self.targets: list[Target] = []
        self.seeds: list[tuple[str, bool]] = []  # (custom id, is a select)
        self.mutations: list[tuple[str, Callable[[str, bool], tuple[str, list[str] | None]]]] = [
            ("as is", self.as_is),
            ("field", self.swap_field),
            ("truncated", self.truncated),
            ("extra field", self.extra_field),
            ("characters", self.odd_characters),
            ("long", self.long),
            ("prefix or verb", self.other_prefix_or_verb),
            ("forged values", self.forged_values),
            ("other kind", self.other_kind),
            ("random", self.random_text),
        ]

    # -- where to click, and what ------------------------------------------------------------------

    async def harvest(self) -> None:
        """Custom ids and messages of the table as it is now, the players' hands included."""
        world = self.world
        if world.table is None:
            await open_table(world, "parity")
            self.figures.tables += 1
        table = world.require_table()
        message = world.table_message()
        self.targets = [Target(message.id, None, False)]
        self.seeds = [(c, False) for c in custom_ids(message)]
        for actor in (world.ann, world.bob):
            hand = await actor.slash(world.channel, "hand")  # not the button: a failure may have lost it
            shown = response(hand)
            self.targets.append(Target(shown.id, actor, True))
            for c in custom_ids(shown):
                self.seeds.append((c, c.startswith("parlour:pick:")))
        sid, turn = table.id, table.turn
        self.seeds += [  # ids of the other templates, for this table
            (f"parlour:lobby:{sid}:join", False),
            (f"parlour:lobby:{sid}:start", False),
            (f"parlour:act:{sid}:{turn}:0", False),
            (f"parlour:pick:{sid}:{turn}::0", True),
            (f"parlour:nav:{sid}:{turn}:0", False),
            (f"parlour:pub:{sid}:{turn}:0", False),
            (f"parlour:opt:{sid}:0", True),
            (f"parlour:optpage:{sid}:1", False),
            (f"parlour:optnum:{sid}:0", False),
            (f"parlour:addbot:{sid}:easy", False),
            (f"parlour:ref:{sid}:confirm", False),
            ("parlour:page:board:parity.all:1", False),
            (f"parlour:page:replay:{sid}:1", False),
            (f"parlour:reset:{self.world.bob.id}:confirm", False),
        ]

    # -- mutations: each returns a custom id and the values of a select (None: a button) --------------

    def values_for(self, is_select: bool) -> list[str] | None:
        if not is_select:
            return None
        table = self.world.table
        legal = 1
        if table is not None and table.state is not None:
            legal = max((len(table.state.legal_actions(s)) for s in range(len(table.seats))), default=1)
        return [f"{self.rng.choice('ag')}{self.rng.randrange(legal + 1)}"]

    def as_is(self, cid: str, is_select: bool) -> tuple[str, list[str] | None]:
        return cid, self.values_for(is_select)

    def swap_field(self, cid: str, is_select: bool) -> tuple[str, list[str] | None]:
        parts = cid.split(":")
        numeric = [i for i, p in enumerate(parts) if re.fullmatch(r"[0-9.]+", p)] or [len(parts) - 1]
        i = self.rng.choice(numeric)
        table = self.world.table
        near = [0, 1, 2, self.rng.randrange(60)]
        if table is not None:
            near += [table.id - 1, table.id + 1, table.turn - 1, table.turn + 1, table.turn]
        parts[i] = self.rng.choice([*ODD_NUMBERS, *map(str, near), *map(str, near)])
        return ":".join(parts), self.values_for(is_select)

    def truncated(self, cid: str, is_select: bool) -> tuple[str, list[str] | None]:
        return cid[: self.rng.randrange(len(cid) + 1)], self.values_for(is_select)

    def extra_field(self, cid: str, is_select: bool) -> tuple[str, list[str] | None]:
        parts = cid.split(":")
        parts.insert(self.rng.randrange(len(parts) + 1), self.rng.choice(["0", "7", "x", "", "act"]))
        return ":".join(parts), self.values_for(is_select)

    def odd_characters(self, cid: str, is_select: bool) -> tuple[str, list[str] | None]:
        at = self.rng.randrange(len(cid) + 1)
        return cid[:at] + self.rng.choice(ODD_CHARS) + cid[at:], self.values_for(is_select)

    def long(self, cid: str, is_select: bool) -> tuple[str, list[str] | None]:
        kind = self.rng.randrange(3)
        if kind == 0:
            return cid + ":" + "9" * self.rng.choice([80, 1000, 5000]), self.values_for(is_select)
        if kind == 1:
            parts = cid.split(":")
            path = ".".join(str(self.rng.randrange(3)) for _ in range(self.rng.choice([30, 10_000])))
            return ":".join([*parts[:4], path, *parts[5:]]), self.values_for(is_select)
        return cid * self.rng.choice([2, 50, 2000]), self.values_for(is_select)

    def other_prefix_or_verb(self, cid: str, is_select: bool) -> tuple[str, list[str] | None]:
        parts = cid.split(":")
        if self.rng.random() < 0.5 or len(parts) < 2:
            parts[0] = self.rng.choice(PREFIXES)
        else:
            parts[1] = self.rng.choice(VERBS)
        return ":".join(parts), self.values_for(is_select or self.rng.random() < 0.3)

    def forged_values(self, cid: str, is_select: bool) -> tuple[str, list[str] | None]:
        n = self.rng.choice([0, 1, 1, 1, 2, 3])
        values = [self.rng.choice([*ODD_VALUES, f"a{self.rng.randrange(40)}", f"g{self.rng.randrange(8)}"])
                  for _ in range(n)]  # fmt: skip
        return cid, values

    def other_kind(self, cid: str, is_select: bool) -> tuple[str, list[str] | None]:
        return cid, None if is_select else self.values_for(True)

    def random_text(self, cid: str, is_select: bool) -> tuple[str, list[str] | None]:
        alphabet = "parlouracthndpikgvbfem:0123456789._-" + "".join(ODD_CHARS)
        text = "".join(self.rng.choice(alphabet) for _ in range(self.rng.randrange(1, 120)))
        if self.rng.random() < 0.5:
            text = "parlour:" + text
        return text, self.values_for(is_select)

    # -- the oracle -----------------------------------------------------------------------------------

    def legal(self, actor: simcord.MemberActor, target: Target, cid: str, values: list[str] | None) -> bool:
        """Whether this click is one the player to move could make now (so it may change the game)."""
        table = self.world.table
        if table is None or table.state is None or not cid.isascii() or len(cid) > 100:
            return False
        seat = table.seat_of(str(actor.id))
        if seat is None:
            return False
        legal = table.state.legal_actions(seat)
        here = rf"parlour:(act|pick|pub):0*{table.id}:0*{table.turn}:"
        if (m := re.fullmatch(here + r"([0-9]+)", cid)) and m[1] == "act":
            return target.ephemeral and int(m[2]) < len(legal)
        if re.fullmatch(here + r"[0-9.]*:[0-9]+", cid) and cid.startswith("parlour:pick:"):
            ok = values is not None and len(values) >= 1 and re.fullmatch(r"a[0-9]{1,6}", values[0])
            return bool(ok and target.ephemeral and values and int(values[0][1:]) < len(legal))
        if (m := re.fullmatch(here + r"([0-9]+)", cid)) and m[1] == "pub":
            return int(m[2]) < len(public_labels(table))
        return False

    def table_message_state(self) -> tuple[Any, ...]:
        table = self.world.table
        if table is None or table.message_id is None:
            return (None,)
        stored = self.world.env.backend.get_message(self.world.channel.id, int(table.message_id))
        return (stored.id, stored.content, repr(stored.embeds), repr(stored.components))

    def fingerprint(self) -> tuple[Any, ...]:
        public = len(self.world.channel.history())
        return (*snapshot(self.world), self.table_message_state(), public)

    def troubles(self) -> int:
        return sum(1 for r in self.caplog.records if r.levelno >= logging.ERROR) + self.world.env.error_cursor

    # -- one input ----------------------------------------------------------------------------------

    async def step(self) -> None:
        world, rng, figures = self.world, self.rng, self.figures
        target = rng.choice(self.targets)
        actor = target.owner or rng.choice([world.ann, world.bob, world.cat, world.mod])
        seed, is_select = rng.choice(self.seeds)
        name, mutate = rng.choice(self.mutations)
        cid, values = mutate(seed, is_select)
        figures.by_mutation[name] = figures.by_mutation.get(name, 0) + 1
        legal = self.legal(actor, target, cid, values)
        figures.legal_offered += legal
        before, troubles = self.fingerprint(), self.troubles()
        message = world.message(target.message_id)
        result = raw_component(world, actor, message, cid, values)
        await world.env.settle(idle=0.005)
        figures.tried += 1
        what = f"{name}: {actor.user.name} sends {cid[:80]!r} {str(values)[:40]} on {target}"
        if not answered(result):
            figures.unanswered += 1
            figures.failures.append("unanswered " + what)
        if self.troubles() != troubles:
            figures.unhandled += 1
            figures.failures.append("error logged after " + what)
        if self.fingerprint() != before:
            if legal:
                figures.legal_applied += 1
            else:
                figures.changed_on_refusal += 1
                figures.failures.append("state changed by " + what)
            await self.harvest()

    async def run(self, inputs: int) -> Figures:
        await self.harvest()
        self.figures.tables = 1
        for _ in range(inputs):
            await self.step()
        return self.figures


async def fuzz(world: AttackWorld, caplog: pytest.LogCaptureFixture, inputs: int, seed: int) -> Figures:
    fuzzer = Fuzzer(world, random.Random(seed), caplog)
    figures = await fuzzer.run(inputs)
    assert not figures.failures, f"{figures.line()}\n" + "\n".join(figures.failures[:15])
    assert figures.tried == inputs
    return figures


async def test_custom_id_fuzz(world: AttackWorld, caplog: pytest.LogCaptureFixture) -> None:
    figures = await fuzz(world, caplog, inputs=200, seed=7)
    assert set(figures.by_mutation) == {
        "as is", "field", "truncated", "extra field", "characters", "long", "prefix or verb",
        "forged values", "other kind", "random",
    }  # fmt: skip


@pytest.mark.slow
async def test_custom_id_fuzz_long(world: AttackWorld, caplog: pytest.LogCaptureFixture) -> None:
    inputs = int(os.environ.get("PARLOUR_FUZZ_INPUTS", "5000"))
    seed = int(os.environ.get("PARLOUR_FUZZ_SEED", "20240601"))
    figures = await fuzz(world, caplog, inputs=inputs, seed=seed)
    print(f"\ncustom-id fuzz (seed {seed}): {figures.line()}")
    print("by mutation: " + ", ".join(f"{k} {v}" for k, v in sorted(figures.by_mutation.items())))
