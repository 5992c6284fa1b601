/**
 * The definition of a run drawn as an SVG diagram, each task box coloured by the status of its
 * latest attempt in the run (grey when not reached), a looped task marked with its iteration
 * count. Loaded lazily by the execution view. The drawing sits in a box as tall as the diagram up
 * to three quarters of the window, scrolling beyond; Zoom in / Zoom out / Fit (all of it in the box)
 * / 100% and Full height (the box grows to the whole diagram) change that. A box is a button:
 * choosing it selects that task.
 */
import { useMemo, useRef, useState } from 'react';
import {
  type DiagramTask,
  iterationsByRef,
  layoutDiagram,
  type Point,
  statusByRef,
} from './diagram-layout.ts';

const FILL: Record<string, string> = {
  COMPLETED: '#d3f0dc',
  COMPLETED_WITH_ERRORS: '#fdf0c4',
  FAILED: '#fbd5d1',
  FAILED_WITH_TERMINAL_ERROR: '#fbd5d1',
  TIMED_OUT: '#fbd5d1',
  CANCELED: '#e4e6eb',
  SKIPPED: '#e4e6eb',
  IN_PROGRESS: '#d6e4fb',
  SCHEDULED: '#d6e4fb',
};

const path = (points: Point[]) => points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x},${p.y}`).join(' ');

export interface DiagramProps {
  tasks: DiagramTask[];
  runTasks: {
    referenceTaskName: string;
    taskType: string;
    status: string;
    seq: number;
    outputData?: Record<string, unknown>;
  }[];
  selectedRef?: string;
  onSelect?: (ref: string) => void;
}

const MIN_ZOOM = 0.1;
const MAX_ZOOM = 3;
const STEP = 1.25;
/** The box's height limit, as a fraction of the window's, unless it is at full height. */
const BOX_SHARE = 0.75;

const clamp = (zoom: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));

export default function WorkflowDiagram({ tasks, runTasks, selectedRef, onSelect }: DiagramProps) {
  const diagram = useMemo(() => layoutDiagram(tasks), [tasks]);
  const status = useMemo(() => statusByRef(runTasks), [runTasks]);
  const iterations = useMemo(() => iterationsByRef(runTasks), [runTasks]);
  const [zoom, setZoom] = useState(1);
  const [fullHeight, setFullHeight] = useState(false);
  const canvas = useRef<HTMLDivElement>(null);
  const first = diagram.edges[0]?.points[0];
  const last = diagram.edges.at(-1)?.points.at(-1);
  const fit = () => {
    const box = canvas.current;
    if (!box) return;
    const width = (box.clientWidth - 4) / diagram.width;
    const height = fullHeight
      ? Number.POSITIVE_INFINITY
      : (window.innerHeight * BOX_SHARE - 4) / diagram.height;
    setZoom(clamp(Math.min(1, width, height)));
  };
  return (
    <figure className="diagram" aria-label="Workflow diagram">
      <div className="diagram-tools">
        <button type="button" onClick={() => setZoom((z) => clamp(z / STEP))} aria-label="Zoom out">
          −
        </button>
        <span className="muted" aria-live="polite">
          {Math.round(zoom * 100)}%
        </span>
        <button type="button" onClick={() => setZoom((z) => clamp(z * STEP))} aria-label="Zoom in">
          +
        </button>
        <button type="button" onClick={fit}>
          Fit
        </button>
        <button type="button" onClick={() => setZoom(1)}>
          100%
        </button>
        <button type="button" aria-pressed={fullHeight} onClick={() => setFullHeight((f) => !f)}>
          Full height
        </button>
      </div>
      <div
        ref={canvas}
        className="diagram-canvas"
        style={{ maxHeight: fullHeight ? 'none' : `${BOX_SHARE * 100}vh` }}
      >
        <svg
          width={diagram.width * zoom}
          height={diagram.height * zoom}
          viewBox={`0 0 ${diagram.width} ${diagram.height}`}
        >
          <title>Tasks of the definition, coloured by status</title>
          <defs>
            <marker
              id="arrow"
              viewBox="0 0 10 10"
              refX="9"
              refY="5"
              markerWidth="7"
              markerHeight="7"
              orient="auto"
            >
              <path d="M0,0 L10,5 L0,10 z" fill="#6b7385" />
            </marker>
          </defs>
          {diagram.frames.map((f) => (
            <rect
              key={`frame-${f.ref}`}
              x={f.x}
              y={f.y}
              width={f.width}
              height={f.height}
              rx={8}
              className="diagram-frame"
            />
          ))}
          {diagram.edges.map((e) => (
            <g key={`edge-${e.label ?? ''}-${e.points.map((p) => `${p.x},${p.y}`).join(';')}`}>
              <path
                d={path(e.points)}
                className={e.loop ? 'diagram-edge loop' : 'diagram-edge'}
                markerEnd="url(#arrow)"
              />
              {e.label && e.points[2] && (
                <text
                  x={(e.points[2] as Point).x + 4}
                  y={(e.points[2] as Point).y - 4}
                  className="diagram-label"
                >
                  {e.label}
                </text>
              )}
            </g>
          ))}
          {first && (
            <circle cx={first.x} cy={first.y - 8} r={8} className="diagram-terminal" aria-label="start" />
          )}
          {last && (
            <circle cx={last.x} cy={last.y + 8} r={8} className="diagram-terminal end" aria-label="end" />
          )}
          {diagram.nodes.map((n) => {
            const s = status.get(n.ref);
            const selected = n.ref === selectedRef;
            const looped = iterations.get(n.ref);
            const count =
              looped === undefined ? '' : n.type === 'DO_WHILE' ? ` · ${looped} iterations` : ` · ×${looped}`;
            return (
              // biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a <button>.
              <g
                key={n.ref}
                data-ref={n.ref}
                data-status={s ?? 'NOT_REACHED'}
                role="button"
                tabIndex={0}
                aria-label={`${n.ref} (${n.type}): ${s ?? 'not reached'}${count}`}
                aria-pressed={selected}
                onClick={() => onSelect?.(n.ref)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' || event.key === ' ') {
                    event.preventDefault();
                    onSelect?.(n.ref);
                  }
                }}
                className="diagram-node"
              >
                <rect
                  x={n.x}
                  y={n.y}
                  width={n.width}
                  height={n.height}
                  rx={6}
                  fill={s ? (FILL[s] ?? '#ffffff') : '#ffffff'}
                  stroke={selected ? '#1f5fbf' : '#8a93a6'}
                  strokeWidth={selected ? 2.5 : 1}
                />
                <text x={n.x + n.width / 2} y={n.y + 19} textAnchor="middle" className="diagram-name">
                  {n.ref.length > 24 ? `${n.ref.slice(0, 23)}…` : n.ref}
                </text>
                <text x={n.x + n.width / 2} y={n.y + 35} textAnchor="middle" className="diagram-type">
                  {s ? `${n.type} · ${s}` : n.type}
                </text>
                {count && (
                  <text x={n.x + n.width - 6} y={n.y + 12} textAnchor="end" className="diagram-count">
                    {n.type === 'DO_WHILE' ? `${looped} iterations` : `×${looped}`}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      </div>
    </figure>
  );
}
