/**
 * The definition of a run drawn as an SVG diagram, each task box coloured by the status of its
 * latest attempt in the run (grey when not reached), a looped task marked with its iteration
 * count. Loaded lazily by the execution view. The drawing sits in a box as tall as the diagram up
 * to three quarters of the window, scrolling beyond; Zoom in / Zoom out / Fit (all of it in the box)
 * / 100% and Full height (the box grows to the whole diagram) change that. A box is a button:
 * choosing it selects that task.
 */
import { useMemo, useRef, useState } from 'react';
import { type DiagramTask, iterationsByRef, layoutDiagram, statusByRef } from './diagram-layout.ts';
import { DiagramLines, TaskBox } from './diagram-parts.tsx';

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
          <DiagramLines diagram={diagram} prefix="diagram" />
          {diagram.nodes.map((n) => {
            const s = status.get(n.ref);
            const selected = n.ref === selectedRef;
            const looped = iterations.get(n.ref);
            const count =
              looped === undefined ? '' : n.type === 'DO_WHILE' ? ` · ${looped} iterations` : ` · ×${looped}`;
            return (
              <TaskBox
                key={n.ref}
                node={n}
                prefix="diagram"
                className="diagram-node"
                data={{ 'data-ref': n.ref, 'data-status': s ?? 'NOT_REACHED' }}
                label={`${n.ref} (${n.type}): ${s ?? 'not reached'}${count}`}
                selected={selected}
                detail={s ? `${n.type} · ${s}` : n.type}
                onSelect={onSelect}
                box={
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
                }
              >
                {count && (
                  <text x={n.x + n.width - 6} y={n.y + 12} textAnchor="end" className="diagram-count">
                    {n.type === 'DO_WHILE' ? `${looped} iterations` : `×${looped}`}
                  </text>
                )}
              </TaskBox>
            );
          })}
        </svg>
      </div>
    </figure>
  );
}
