// The frames the server sends (bot/web/frames.py): a table as one viewer may see it.

export interface CardFace {
  code: string;
  rank: string;
  suit: string;
  red: boolean;
  joker: boolean;
  name: string;
}

export interface Spot {
  kind: "Spot";
  card: CardFace | null;
  label: string;
  mark: "legal" | "winning" | "dimmed" | "last" | "waiting" | null;
  empty: boolean;
}

export interface Facts {
  kind: "Facts";
  items: [string, string][];
  title: string;
}

export interface Row {
  kind: "Row";
  title: string;
  spots: Spot[];
  note: string;
  overlap: boolean;
}

export interface Pile {
  kind: "Pile";
  title: string;
  spots: Spot[];
  total: number | null;
  total_label: string;
  note: string;
}

export interface Grid {
  kind: "Grid";
  title: string;
  rows: string[];
  columns: string[];
  cells: Spot[];
  note: string;
  named_cells: boolean;
}

export interface Counts {
  kind: "Counts";
  title: string;
  items: [string, number][];
}

export interface ScoreLine {
  kind: "ScoreLine";
  name: string;
  values: string[];
  active: boolean;
}

export interface Scores {
  kind: "Scores";
  columns: string[];
  lines: ScoreLine[];
  title: string;
  active_text: string;
}

export interface Notes {
  kind: "Notes";
  lines: string[];
  title: string;
}

export type Area = Facts | Row | Pile | Grid | Counts | Scores | Notes;

export interface Layout {
  kind: "Layout";
  title: string;
  subtitle: string;
  areas: Area[];
}

export interface Choice {
  i: number;
  label: string;
  path: string[];
  card: CardFace | null;
  seat: number | null;
}

export interface Player {
  seat: number;
  name: string;
  bot: boolean;
  left: boolean;
}

export interface TableFrame {
  type: "table";
  table: number;
  game: { id: string; title: string };
  mode: "online" | "referee";
  status: string;
  seat: number | null;
  players: Player[];
  turn: number;
  deal?: number;
  awaiting?: number[];
  scores?: number[];
  over?: boolean;
  result?: string[];
  layout: Layout | null;
  hand: CardFace[];
  choices: Choice[];
  reasons: Record<string, string>;
  log: string[];
  closed?: boolean;
  deadline?: number | null;
  // a referee table: how many entries are in, what its Confirm and Undo name of them (the count
  // and a digest: an undo and a new entry bring the count back, not the digest), and whether
  // the last waits for confirmation
  entered?: number;
  seen?: string;
  unconfirmed?: boolean;
}

export interface Refusal {
  type: "refused";
  text: string;
  fatal?: boolean;
}

// A sharded bot: this table is served by the process at the path `to` of our own origin.
export interface Moved {
  type: "moved";
  to: string;
}

export type Frame = TableFrame | Refusal | Moved;
