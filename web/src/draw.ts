// Drawing a frame as HTML: the table's areas, the hand, the choices. Every element is built with
// the DOM API and text set as text (never as HTML), so nothing a player typed becomes markup.

import type { Area, CardFace, Choice, Layout, Spot, TableFrame } from "./frames";

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className = "",
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function cardFace(card: CardFace | null, seen: Set<string>): HTMLElement {
  const node = el("span", "card");
  if (card === null) {
    node.classList.add("back");
    node.setAttribute("aria-label", "a face-down card");
    return node;
  }
  if (card.red) node.classList.add("red");
  if (card.joker) {
    node.classList.add("joker");
    node.append(el("span", "rank", "★"), el("span", "suit", "Joker"));
  } else {
    node.append(el("span", "rank", card.rank), el("span", "suit", card.suit));
  }
  node.setAttribute("aria-label", card.name);
  node.title = card.name;
  if (!seen.has(card.code)) node.classList.add("arrives");
  return node;
}

function spotNode(spot: Spot, seen: Set<string>): HTMLElement {
  const box = el("span", "spot");
  if (spot.mark) box.classList.add(spot.mark);
  if (spot.empty) {
    box.append(el("span", "card empty"));
  } else {
    box.append(cardFace(spot.card, seen));
  }
  if (spot.label) box.append(el("span", "label", spot.label));
  return box;
}

/** Grid cells that open choices (Spec: tap a face-down cell, then name the card to call). */
export type CellChoices = { cells: Map<string, Choice[]>; open: (cell: string) => void };

function areaNode(area: Area, seen: Set<string>, picks?: CellChoices): HTMLElement {
  const box = el("section", `area ${area.kind.toLowerCase()}`);
  const title = "title" in area ? area.title : "";
  if (title) box.append(el("h3", "", title));
  switch (area.kind) {
    case "Facts": {
      const list = el("dl", "facts");
      for (const [name, value] of area.items) {
        const item = el("div", "fact");
        item.append(el("dt", "", name), el("dd", "", value));
        list.append(item);
      }
      box.append(list);
      break;
    }
    case "Row":
    case "Pile": {
      const row = el("div", area.kind === "Row" && area.overlap ? "cards overlap" : "cards");
      for (const spot of area.spots) row.append(spotNode(spot, seen));
      box.append(row);
      if (area.kind === "Pile" && area.total !== null) {
        box.append(el("p", "total", `${area.total_label} ${area.total}`));
      }
      if (area.note) box.append(el("p", "note", area.note));
      break;
    }
    case "Grid": {
      const grid = el("div", "grid");
      grid.style.gridTemplateColumns = `auto repeat(${area.columns.length}, 1fr)`;
      grid.append(el("span", "head"));
      for (const column of area.columns) grid.append(el("span", "head", column));
      area.rows.forEach((row, r) => {
        grid.append(el("span", "head", row));
        area.columns.forEach((column, c) => {
          const spot = spotNode(area.cells[r * area.columns.length + c], seen);
          const name = `${row}${column}`;
          if (picks?.cells.has(name)) {
            const button = el("button", "cell-pick");
            button.type = "button";
            button.setAttribute("aria-label", `Call at ${name}`);
            button.append(spot);
            button.addEventListener("click", () => picks.open(name));
            grid.append(button);
          } else {
            grid.append(spot);
          }
        });
      });
      box.append(grid);
      if (area.note) box.append(el("p", "note", area.note));
      break;
    }
    case "Counts": {
      const list = el("ul", "counts");
      for (const [name, count] of area.items) list.append(el("li", "", `${name}: ${count}`));
      box.append(list);
      break;
    }
    case "Scores": {
      const table = el("table", "scores");
      const head = el("tr");
      head.append(el("th", "", ""));
      for (const column of area.columns) head.append(el("th", "", column));
      table.append(head);
      for (const line of area.lines) {
        const row = el("tr", line.active ? "active" : "");
        row.append(el("th", "", line.name));
        for (const value of line.values) row.append(el("td", "", value));
        if (line.active) row.title = area.active_text;
        table.append(row);
      }
      box.append(table);
      break;
    }
    case "Notes": {
      for (const line of area.lines) box.append(el("p", "note", line));
      break;
    }
  }
  return box;
}

export function layoutNode(layout: Layout, seen: Set<string>, picks?: CellChoices): HTMLElement {
  const box = el("div", "layout");
  const head = el("header", "layout-head");
  head.append(el("h2", "", layout.title));
  if (layout.subtitle) head.append(el("p", "subtitle", layout.subtitle));
  box.append(head);
  for (const area of layout.areas) box.append(areaNode(area, seen, picks));
  return box;
}

export type Choose = (choice: Choice) => void;

/** The hand: each card a button when it may be played (one tap a move), the others with the
 * game's reason on hover or tap. A card with several ways to play (a value to choose) opens them. */
export function handNode(frame: TableFrame, seen: Set<string>, choose: Choose, explain: (text: string) => void): HTMLElement {
  const box = el("section", "hand");
  if (frame.hand.length > 0) box.append(el("h3", "", "Your hand"));
  const row = el("div", "cards hand-cards");
  const byCard = new Map<string, Choice[]>();
  for (const choice of frame.choices) {
    if (choice.card !== null) byCard.set(choice.card.code, [...(byCard.get(choice.card.code) ?? []), choice]);
  }
  const held = new Set(frame.hand.map((c) => c.code));
  for (const card of frame.hand) row.append(cardButton(card, byCard.get(card.code) ?? [], frame, seen, choose, explain));
  box.append(row);
  // cards the viewer may choose that are not in a hand (a card from the table, a pool)
  const others = [...byCard.values()].filter((ways) => !held.has(ways[0].card?.code ?? ""));
  if (others.length > 0) {
    box.append(el("h3", "", "You may choose"));
    const more = el("div", "cards");
    for (const ways of others) {
      const face = ways[0].card;
      if (face !== null) more.append(cardButton(face, ways, frame, seen, choose, explain));
    }
    box.append(more);
  }
  return box;
}

function cardButton(
  card: CardFace,
  ways: Choice[],
  frame: TableFrame,
  seen: Set<string>,
  choose: Choose,
  explain: (text: string) => void,
): HTMLElement {
  const button = el("button", "spot playable");
  button.type = "button";
  button.append(cardFace(card, seen));
  if (ways.length > 0) {
    button.setAttribute("aria-label", `Play ${card.name}`);
    button.addEventListener("click", () => (ways.length === 1 ? choose(ways[0]) : pickOne(button, ways, choose)));
  } else {
    button.classList.replace("playable", "dimmed");
    const reason = frame.reasons[card.code] ?? "You cannot play this card now.";
    button.title = reason;
    button.setAttribute("aria-label", `${card.name}: ${reason}`);
    button.addEventListener("click", () => explain(reason));
  }
  return button;
}

/** A small menu under a card with several ways to play it (a value to choose, a total to set). */
function pickOne(anchor: HTMLElement, ways: Choice[], choose: Choose): void {
  document.querySelector(".picker")?.remove();
  const menu = el("div", "picker");
  for (const way of ways) {
    const button = el("button", "choice", way.label);
    button.type = "button";
    button.addEventListener("click", () => {
      menu.remove();
      choose(way);
    });
    menu.append(button);
  }
  anchor.after(menu);
}

/** Choices that are not cards (calls, bids, passes), as large buttons; a long menu is grouped by
 * its first step (Spec's calls by cell). At a referee table (the tap pad) every entry is here,
 * under the name of the player it is for: cards as a pack laid out by suit, one tap each. */
export function choicesNode(choices: Choice[], names: string[], choose: Choose, referee: boolean): HTMLElement {
  const box = el("section", referee ? "choices pad" : "choices");
  if (!referee) {
    appendButtons(box, choices.filter((c) => c.card === null), choose);
    return box;
  }
  const seats = [...new Set(choices.map((c) => c.seat ?? -1))];
  for (const seat of seats) {
    const mine = choices.filter((c) => (c.seat ?? -1) === seat);
    const holder = el("div", "seat-entries");
    if (seat >= 0) holder.append(el("h3", "", `For ${names[seat]}`));
    const cards = mine.filter((c) => c.card !== null && c.path.length <= 2);
    const suits = new Map<string, Choice[]>();
    for (const choice of cards) {
      const suit = choice.card?.suit || "★";
      suits.set(suit, [...(suits.get(suit) ?? []), choice]);
    }
    for (const row of suits.values()) {
      const line = el("div", "cards pack-row");
      for (const choice of row) {
        const button = el("button", "spot entry");
        button.type = "button";
        button.title = choice.label;
        button.setAttribute("aria-label", choice.label);
        if (choice.card !== null) button.append(cardFace(choice.card, new Set([choice.card.code])));
        button.addEventListener("click", () => choose(choice));
        line.append(button);
      }
      holder.append(line);
    }
    appendButtons(holder, mine.filter((c) => !cards.includes(c)), choose);
    box.append(holder);
  }
  return box;
}

function appendButtons(box: HTMLElement, plain: Choice[], choose: Choose): void {
  if (plain.length === 0) return;
  const groups = new Map<string, Choice[]>();
  for (const choice of plain) {
    const group = plain.length > 16 && choice.path.length > 1 ? choice.path[0] : "";
    groups.set(group, [...(groups.get(group) ?? []), choice]);
  }
  for (const [group, members] of groups) {
    const holder = el(groups.size > 6 && group ? "details" : "div", "group");
    if (group) holder.append(el(holder instanceof HTMLDetailsElement ? "summary" : "h3", "", group));
    const buttons = el("div", "buttons");
    for (const choice of members) {
      const button = el("button", "choice", choice.label);
      button.type = "button";
      button.addEventListener("click", () => choose(choice));
      buttons.append(button);
    }
    holder.append(buttons);
    box.append(holder);
  }
}

/** The choices of one grid cell, as a panel of buttons named by their second step (the card). */
export function cellPanel(cell: string, choices: Choice[], choose: Choose, close: () => void): HTMLElement {
  const panel = el("section", "cell-panel");
  panel.setAttribute("role", "dialog");
  panel.setAttribute("aria-label", `Choices at ${cell}`);
  const head = el("div", "cell-head");
  head.append(el("h3", "", `At ${cell}`));
  const shut = el("button", "tool", "Close");
  shut.type = "button";
  shut.addEventListener("click", close);
  head.append(shut);
  panel.append(head);
  const buttons = el("div", "buttons");
  for (const choice of choices) {
    const button = el("button", "choice", choice.path[choice.path.length - 1] ?? choice.label);
    button.type = "button";
    button.title = choice.label;
    button.addEventListener("click", () => choose(choice));
    buttons.append(button);
  }
  panel.append(buttons);
  return panel;
}
