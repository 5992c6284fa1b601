/**
 * Lays out a workflow definition as a top-down diagram: one box per task, FORK_JOIN branches and
 * SWITCH/DECISION cases side by side under their task, a DO_WHILE's body inside a frame under the
 * loop task, and orthogonal edges between consecutive tasks. Pure (no DOM), so it is unit-tested;
 * the SVG is drawn by diagram.tsx. Each block has one entry at its top centre and its exits at its
 * bottom edge; a sequence stacks blocks and joins every exit of one to the entry of the next.
 */
import { baseRef } from './run-tasks.ts';

export interface Point {
  x: number;
  y: number;
}

/** The part of a definition task the diagram reads. */
export interface DiagramTask {
  name: string;
  taskReferenceName: string;
  type?: string;
  decisionCases?: Record<string, DiagramTask[]>;
  defaultCase?: DiagramTask[];
  forkTasks?: DiagramTask[][];
  loopOver?: DiagramTask[];
}

export interface DiagramNode {
  ref: string;
  name: string;
  type: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DiagramEdge {
  points: Point[];
  label?: string;
  /** A DO_WHILE's way back to its loop task. */
  loop?: boolean;
}

/** The frame around a DO_WHILE and its body. */
export interface DiagramFrame {
  ref: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Diagram {
  width: number;
  height: number;
  nodes: DiagramNode[];
  edges: DiagramEdge[];
  frames: DiagramFrame[];
}

export const NODE_WIDTH = 180;
export const NODE_HEIGHT = 46;
const V_GAP = 34;
const H_GAP = 24;
const FRAME_PAD = 14;
const MARGIN = 20;
/** Where the diagram's start and end circles sit. */
const TERMINAL = 16;

interface Block {
  width: number;
  height: number;
  nodes: DiagramNode[];
  edges: DiagramEdge[];
  frames: DiagramFrame[];
  entry: Point;
  exits: Point[];
}

const at = (p: Point, dx: number, dy: number): Point => ({ x: p.x + dx, y: p.y + dy });

function moved(block: Block, dx: number, dy: number): Block {
  return {
    ...block,
    nodes: block.nodes.map((n) => ({ ...n, x: n.x + dx, y: n.y + dy })),
    edges: block.edges.map((e) => ({ ...e, points: e.points.map((p) => at(p, dx, dy)) })),
    frames: block.frames.map((f) => ({ ...f, x: f.x + dx, y: f.y + dy })),
    entry: at(block.entry, dx, dy),
    exits: block.exits.map((p) => at(p, dx, dy)),
  };
}

/** An orthogonal edge from an exit down to an entry, bending halfway. */
function link(from: Point, to: Point, label?: string): DiagramEdge {
  if (from.x === to.x) return { points: [from, to], ...(label ? { label } : {}) };
  const midY = from.y + Math.max(0, (to.y - from.y) / 2);
  return {
    points: [from, { x: from.x, y: midY }, { x: to.x, y: midY }, to],
    ...(label ? { label } : {}),
  };
}

function box(task: DiagramTask): Block {
  const node: DiagramNode = {
    ref: task.taskReferenceName,
    name: task.name,
    type: task.type ?? 'SIMPLE',
    x: 0,
    y: 0,
    width: NODE_WIDTH,
    height: NODE_HEIGHT,
  };
  return {
    width: NODE_WIDTH,
    height: NODE_HEIGHT,
    nodes: [node],
    edges: [],
    frames: [],
    entry: { x: NODE_WIDTH / 2, y: 0 },
    exits: [{ x: NODE_WIDTH / 2, y: NODE_HEIGHT }],
  };
}

/** An empty branch: a straight line through, as wide as half a box. */
function passThrough(): Block {
  const mid = NODE_WIDTH / 4;
  return {
    width: NODE_WIDTH / 2,
    height: 0,
    nodes: [],
    edges: [],
    frames: [],
    entry: { x: mid, y: 0 },
    exits: [{ x: mid, y: 0 }],
  };
}

function sequence(tasks: DiagramTask[]): Block {
  const blocks = tasks.map(block);
  if (blocks.length === 0) return passThrough();
  const width = Math.max(...blocks.map((b) => b.width));
  const out: Block = { width, height: 0, nodes: [], edges: [], frames: [], entry: { x: 0, y: 0 }, exits: [] };
  let y = 0;
  blocks.forEach((b, i) => {
    const placed = moved(b, (width - b.width) / 2, y);
    if (i === 0) out.entry = placed.entry;
    else for (const exit of out.exits) out.edges.push(link(exit, placed.entry));
    out.nodes.push(...placed.nodes);
    out.edges.push(...placed.edges);
    out.frames.push(...placed.frames);
    out.exits = placed.exits;
    y += b.height + (i < blocks.length - 1 ? V_GAP : 0);
  });
  out.height = y;
  return out;
}

/** A task with branches side by side under it (FORK_JOIN, SWITCH, DECISION). */
function branching(task: DiagramTask, branches: { label?: string; tasks: DiagramTask[] }[]): Block {
  const head = box(task);
  const laid = branches.map((b) => ({ label: b.label, block: sequence(b.tasks) }));
  const rowWidth = laid.reduce((sum, b) => sum + b.block.width, 0) + H_GAP * Math.max(0, laid.length - 1);
  const width = Math.max(NODE_WIDTH, rowWidth);
  const out: Block = moved(head, (width - NODE_WIDTH) / 2, 0);
  out.width = width;
  out.exits = [];
  const rowTop = NODE_HEIGHT + V_GAP;
  const rowHeight = Math.max(0, ...laid.map((b) => b.block.height));
  let x = (width - rowWidth) / 2;
  const headExit = { x: width / 2, y: NODE_HEIGHT };
  for (const { label, block: b } of laid) {
    const placed = moved(b, x, rowTop);
    out.edges.push(link(headExit, placed.entry, label), ...placed.edges);
    out.nodes.push(...placed.nodes);
    out.frames.push(...placed.frames);
    // Shorter branches continue straight down to the bottom of the row.
    for (const exit of placed.exits) {
      const bottom = { x: exit.x, y: rowTop + rowHeight };
      if (exit.y < bottom.y) out.edges.push({ points: [exit, bottom] });
      out.exits.push(bottom);
    }
    x += b.width + H_GAP;
  }
  if (laid.length === 0) out.exits = [headExit];
  out.height = laid.length === 0 ? NODE_HEIGHT : rowTop + rowHeight;
  return out;
}

/** A DO_WHILE: the loop task and its body in a frame, with an edge back up to the loop task. */
function loop(task: DiagramTask): Block {
  const head = box(task);
  const body = sequence(task.loopOver ?? []);
  const inner = Math.max(NODE_WIDTH, body.width);
  const width = inner + 2 * FRAME_PAD;
  const out: Block = moved(head, (width - NODE_WIDTH) / 2, FRAME_PAD);
  out.width = width;
  const bodyTop = FRAME_PAD + NODE_HEIGHT + V_GAP;
  const placed = moved(body, (width - body.width) / 2, bodyTop);
  const bottom = bodyTop + body.height + FRAME_PAD;
  out.edges.push(link({ x: width / 2, y: FRAME_PAD + NODE_HEIGHT }, placed.entry), ...placed.edges);
  out.nodes.push(...placed.nodes);
  out.frames.push({ ref: task.taskReferenceName, x: 0, y: 0, width, height: bottom }, ...placed.frames);
  const last = placed.exits[0] ?? placed.entry;
  const side = width - FRAME_PAD / 2;
  out.edges.push({
    points: [
      last,
      { x: last.x, y: bottom - FRAME_PAD / 2 },
      { x: side, y: bottom - FRAME_PAD / 2 },
      { x: side, y: FRAME_PAD + NODE_HEIGHT / 2 },
      { x: width / 2 + NODE_WIDTH / 2, y: FRAME_PAD + NODE_HEIGHT / 2 },
    ],
    loop: true,
  });
  out.exits = [{ x: width / 2, y: bottom }];
  out.height = bottom;
  return out;
}

function block(task: DiagramTask): Block {
  switch (task.type) {
    case 'FORK_JOIN':
      return branching(
        task,
        (task.forkTasks ?? []).map((tasks) => ({ tasks })),
      );
    case 'SWITCH':
    case 'DECISION':
      return branching(task, [
        ...Object.entries(task.decisionCases ?? {}).map(([label, tasks]) => ({ label, tasks })),
        { label: 'default', tasks: task.defaultCase ?? [] },
      ]);
    case 'DO_WHILE':
      return loop(task);
    default:
      return box(task);
  }
}

/** The whole definition, with start and end points joined to its first and last tasks. */
export function layoutDiagram(tasks: DiagramTask[]): Diagram {
  const body = moved(sequence(tasks), MARGIN, MARGIN + TERMINAL + V_GAP);
  const width = body.width + 2 * MARGIN;
  const start: Point = { x: body.entry.x, y: MARGIN + TERMINAL };
  const endY = body.height + MARGIN + TERMINAL + 2 * V_GAP;
  const end: Point = { x: width / 2, y: endY };
  const edges =
    tasks.length === 0
      ? [link(start, end)]
      : [link(start, body.entry), ...body.edges, ...body.exits.map((exit) => link(exit, end))];
  return {
    width,
    height: endY + TERMINAL + MARGIN,
    nodes: body.nodes,
    edges,
    frames: body.frames,
  };
}

/**
 * The status to colour each reference name with: the latest attempt of the task (the highest
 * `seq`); a DO_WHILE iteration's `ref__N` counts as `ref`.
 */
export function statusByRef(
  tasks: { referenceTaskName: string; status: string; seq: number }[],
): Map<string, string> {
  const latest = new Map<string, { status: string; seq: number }>();
  for (const task of tasks) {
    const ref = baseRef(task.referenceTaskName);
    const seen = latest.get(ref);
    if (!seen || task.seq >= seen.seq) latest.set(ref, { status: task.status, seq: task.seq });
  }
  return new Map([...latest].map(([ref, { status }]) => [ref, status]));
}

/**
 * How many DO_WHILE iterations each reference ran: a loop body task counts the iterations it ran
 * in (its distinct `ref__N` names; `ref__2__1` in a loop within a loop), a DO_WHILE its own
 * `outputData.iteration`. References that did not loop are left out.
 */
export function iterationsByRef(
  tasks: { referenceTaskName: string; taskType: string; outputData?: Record<string, unknown> }[],
): Map<string, number> {
  const seen = new Map<string, Set<string>>();
  const loops = new Map<string, number>();
  for (const task of tasks) {
    const ref = baseRef(task.referenceTaskName);
    const count = task.outputData?.iteration;
    if (task.taskType === 'DO_WHILE' && typeof count === 'number') {
      loops.set(ref, Math.max(loops.get(ref) ?? 0, count));
    } else if (ref !== task.referenceTaskName) {
      seen.set(ref, (seen.get(ref) ?? new Set()).add(task.referenceTaskName));
    }
  }
  return new Map([...[...seen].map(([ref, set]) => [ref, set.size] as const), ...loops]);
}
