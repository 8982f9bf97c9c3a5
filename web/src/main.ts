// The live table: inside Discord as an Activity (the Embedded App SDK), or in a browser page at
// /t/<server>/<channel> after "Log in with Discord". The server decides who we are and what we
// may see; this page only draws the frames it receives and sends the choices clicked.

import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";
import { cellPanel, choicesNode, el, handNode, layoutNode } from "./draw";
import type { CellChoices } from "./draw";
import type { Choice, Frame, TableFrame } from "./frames";

const root = document.getElementById("app") as HTMLElement;
const clientId = document.querySelector<HTMLMetaElement>('meta[name="parlour-client-id"]')?.content ?? "";
const params = new URLSearchParams(location.search);
// Behind Discord's proxy every path of ours is under /.proxy/ when the page was loaded there.
const base = location.pathname.startsWith("/.proxy/") ? "/.proxy" : "";

type Hello = { session?: string; instance?: string; table?: [string, string] };

let socket: WebSocket | null = null;
let current: TableFrame | null = null;
let seen = new Set<string>();
let retry = 0;
let hello: Hello | null = null;
let openCell: string | null = null;
// In a sharded bot, the path of the process that serves this table ("" is the root: any process).
// Only a path of our own origin is ever followed (bot/web/routing.py checks the same pattern).
let route = "";
const PREFIX = /^(?:\/[a-z0-9][a-z0-9_-]{0,31}){1,3}$/;
let hops = 0;

function status(text: string, kind: "info" | "error" = "info"): void {
  const bar = document.getElementById("status") ?? el("p", "status");
  bar.id = "status";
  bar.className = `status ${kind}`;
  bar.textContent = text;
  bar.setAttribute("role", kind === "error" ? "alert" : "status");
  if (!bar.isConnected) document.body.prepend(bar);
}

function loginLink(): void {
  root.replaceChildren();
  const box = el("div", "login");
  box.append(el("h1", "", "Parlour"), el("p", "", "Log in with Discord to sit at your table or watch it."));
  const link = el("a", "button", "Log in with Discord");
  link.href = `${base}/login?next=${encodeURIComponent(location.pathname)}`;
  box.append(link);
  root.append(box);
}

async function activityHello(): Promise<Hello> {
  let sdk: DiscordSDK | DiscordSDKMock;
  if (params.has("frame_id")) {
    sdk = new DiscordSDK(clientId);
  } else {
    // outside Discord: the SDK's own mock, each tab its own user (?mock=<user>), for development and tests
    const mock = new DiscordSDKMock(clientId, params.get("guild"), params.get("channel"), null);
    const user = params.get("mock") ?? "";
    mock._updateCommandMocks({ authorize: async () => ({ code: `mock-${user}` }) });
    sdk = mock;
  }
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const response = await fetch(`${base}/api/activity-session`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  if (!response.ok) throw new Error(await response.text());
  const login = (await response.json()) as { session: string; access_token: string };
  await sdk.commands.authenticate({ access_token: login.access_token });
  return { session: login.session, instance: sdk.instanceId };
}

function connect(): void {
  if (hello === null) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}${base}${route}/ws`);
  socket = ws;
  const opening = hello;
  ws.addEventListener("open", () => {
    retry = 0;
    ws.send(JSON.stringify(opening));
  });
  ws.addEventListener("message", (event) => receive(JSON.parse(String(event.data)) as Frame));
  ws.addEventListener("close", () => {
    if (socket !== ws) return;
    socket = null;
    route = ""; // start again at the root: after a takeover it sends us to the new owner
    hops = 0;
    retry = Math.min(retry + 1, 6);
    status("Connection lost: reconnecting…", "error");
    window.setTimeout(connect, 250 * 2 ** retry);
  });
}

function receive(frame: Frame): void {
  if (frame.type === "moved") {
    // follow at once, to a path of ours only, and not round in circles (processes mid-takeover)
    if (typeof frame.to === "string" && PREFIX.test(frame.to) && hops < 4) {
      hops += 1;
      route = frame.to;
      const old = socket;
      socket = null;
      old?.close();
      connect();
    } else {
      status("This table is moving between Parlour's processes: reconnecting…", "error");
    }
    return;
  }
  if (frame.type === "refused") {
    status(frame.text, "error");
    if (frame.fatal) {
      socket = null; // no reconnection: the server said no
      if (!("session" in (hello ?? {}))) loginLink();
    }
    return;
  }
  document.getElementById("status")?.remove();
  hops = 0;
  current = frame;
  draw(frame);
}

function send(choice: Choice): void {
  if (socket === null || current === null) return;
  // the label too: a referee table's turn numbers repeat after an undo, and the server checks
  // that the number still names the entry this frame showed
  socket.send(JSON.stringify({ act: { turn: current.turn, choice: choice.i, label: choice.label } }));
  root.classList.add("sending");
}

function sendVerb(verb: "confirm" | "undo"): void {
  // the entries this frame showed: a double tap, or a tap on a frame that a newer entry, an undo
  // and another entry, or a correction outdated, is refused rather than taking back (or
  // confirming) an entry not seen
  socket?.send(JSON.stringify({ [verb]: { entered: current?.entered ?? 0, seen: current?.seen } }));
}

function draw(frame: TableFrame): void {
  root.classList.remove("sending");
  const names = frame.players.map((p) => p.name);
  const page = el("main", `table ${frame.mode}`);
  page.dataset.turn = String(frame.turn);
  const head = el("header", "top");
  head.append(el("h1", "", frame.game.title));
  const who = frame.seat !== null ? `You are ${names[frame.seat]}` : frame.mode === "referee" ? "Referee table" : "Watching";
  head.append(el("p", "who", who));
  page.append(head);
  page.append(turnLine(frame, names));
  const picks = gridChoices(frame);
  if (frame.layout !== null) page.append(layoutNode(frame.layout, seen, picks));
  if (picks !== undefined && openCell !== null && picks.cells.has(openCell)) {
    page.append(cellPanel(openCell, picks.cells.get(openCell) ?? [], send, () => picks.open("")));
  }
  const referee = frame.mode === "referee";
  const elsewhere = frame.choices.filter((c) => !(picks?.cells.get(c.path[0]) ?? []).includes(c));
  if (!referee) page.append(handNode(frame, seen, send, (text) => status(text, "error")));
  page.append(choicesNode(elsewhere, names, send, referee));
  if (referee && frame.status === "playing") {
    const tools = el("div", "tools");
    // only what can be done: confirming needs an entry waiting for it, undoing any entry
    const verbs = [...(frame.unconfirmed ? ["confirm" as const] : []), ...((frame.entered ?? 0) > 0 ? ["undo" as const] : [])];
    for (const verb of verbs) {
      const button = el("button", "tool", verb === "confirm" ? "Confirm the last entry" : "Undo the last entry");
      button.type = "button";
      button.addEventListener("click", () => sendVerb(verb));
      tools.append(button);
    }
    if (verbs.length > 0) page.append(tools);
  }
  if (frame.result && frame.result.length > 0) {
    const result = el("section", "result");
    result.append(el("h2", "", "Result"));
    for (const line of frame.result) result.append(el("p", "", line));
    page.append(result);
  }
  const log = el("section", "log");
  log.append(el("h2", "", "What happened"));
  const list = el("ol", "");
  for (const line of frame.log) list.append(el("li", "", line));
  log.append(list);
  page.append(log);
  root.replaceChildren(page);
  seen = new Set(collectCodes(frame));
}

/** Choices that name a cell of the table's grid first (Spec's calls): the cell is tapped instead. */
function gridChoices(frame: TableFrame): CellChoices | undefined {
  const grid = frame.layout?.areas.find((a) => a.kind === "Grid");
  if (grid === undefined || grid.kind !== "Grid" || !grid.named_cells) return undefined;
  const names = new Set(grid.rows.flatMap((r) => grid.columns.map((c) => `${r}${c}`)));
  const cells = new Map<string, Choice[]>();
  for (const choice of frame.choices) {
    if (choice.path.length === 2 && names.has(choice.path[0])) {
      cells.set(choice.path[0], [...(cells.get(choice.path[0]) ?? []), choice]);
    }
  }
  if (cells.size === 0) return undefined;
  return {
    cells,
    open: (cell: string) => {
      openCell = cell || null;
      if (current !== null) draw(current);
    },
  };
}

function turnLine(frame: TableFrame, names: string[]): HTMLElement {
  const box = el("div", "turn-box");
  const line = el("p", "turn");
  line.setAttribute("aria-live", "polite");
  box.append(line);
  if (frame.closed || frame.over) {
    line.textContent = "The match is over.";
  } else if (frame.status === "lobby") {
    line.textContent = "Waiting for the host to start the game.";
  } else {
    const waiting = (frame.awaiting ?? []).map((s) => names[s]);
    const mine = frame.seat !== null && (frame.awaiting ?? []).includes(frame.seat);
    line.textContent = mine ? "Your turn." : waiting.length > 0 ? `Waiting for ${waiting.join(", ")}.` : "";
    if (mine) line.classList.add("mine");
    if (frame.deadline) {
      const clock = el("p", "clock");
      clock.dataset.deadline = String(frame.deadline);
      clock.dataset.mine = mine ? "1" : "";
      tick(clock);
      box.append(clock);
    }
  }
  return box;
}

/** The turn's clock: how long until a bot plays for whoever the table waits for. */
function tick(clock: HTMLElement): void {
  const left = Math.max(0, Math.round(Number(clock.dataset.deadline) - Date.now() / 1000));
  const time = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  clock.textContent = clock.dataset.mine ? `${time} left: then a bot plays for you.` : `A bot takes the turn in ${time}.`;
  clock.classList.toggle("urgent", left <= 30);
}

window.setInterval(() => document.querySelectorAll<HTMLElement>(".clock").forEach(tick), 1000);

function collectCodes(frame: TableFrame): string[] {
  const codes: string[] = frame.hand.map((c) => c.code);
  for (const area of frame.layout?.areas ?? []) {
    const spots = area.kind === "Row" || area.kind === "Pile" ? area.spots : area.kind === "Grid" ? area.cells : [];
    for (const spot of spots) if (spot.card) codes.push(spot.card.code);
  }
  return codes;
}

async function start(): Promise<void> {
  const match = location.pathname.match(/\/t\/(\d+)\/(\d+)$/);
  try {
    hello = match !== null ? { table: [match[1], match[2]] } : await activityHello();
  } catch (error) {
    status(`Could not log in: ${error instanceof Error ? error.message : String(error)}`, "error");
    return;
  }
  status("Connecting…");
  connect();
}

void start();
