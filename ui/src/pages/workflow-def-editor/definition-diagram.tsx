/**
 * The definition being edited, drawn as a diagram: the execution page's layout
 * (pages/executions/diagram-layout.ts: fork branches and switch cases side by side, loop bodies in
 * a frame), every box a button that selects its task for editing. Redrawn on every edit; a
 * definition the layout cannot read (JSON being typed) is said in words.
 */
import { useMemo } from 'react';
import type { WorkflowDef } from '../../api/routes.ts';
import { type Diagram, type DiagramTask, layoutDiagram, type Point } from '../executions/diagram-layout.ts';

const line = (points: Point[]) => points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x},${p.y}`).join(' ');

export function DefinitionDiagram(props: {
  def: WorkflowDef;
  selectedRef: string | undefined;
  onSelect: (ref: string) => void;
}) {
  const laid = useMemo((): Diagram | Error => {
    try {
      return layoutDiagram((Array.isArray(props.def.tasks) ? props.def.tasks : []) as DiagramTask[]);
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }, [props.def.tasks]);
  if (laid instanceof Error) {
    return (
      <p className="notice" role="note">
        The diagram cannot be drawn from this definition: {laid.message}
      </p>
    );
  }
  const first = laid.edges[0]?.points[0];
  const last = laid.edges.at(-1)?.points.at(-1);
  return (
    <figure className="def-diagram" aria-label="Definition diagram">
      <svg width={laid.width} height={laid.height} viewBox={`0 0 ${laid.width} ${laid.height}`}>
        <title>The tasks of the definition; choose one to edit it</title>
        <defs>
          <marker
            id="def-arrow"
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
        {laid.frames.map((f) => (
          <rect
            key={`${f.x},${f.y}`}
            x={f.x}
            y={f.y}
            width={f.width}
            height={f.height}
            rx={8}
            className="def-diagram-frame"
          />
        ))}
        {laid.edges.map((e) => (
          <g key={`${e.label ?? ''}:${e.points.map((p) => `${p.x},${p.y}`).join(';')}`}>
            <path d={line(e.points)} className="def-diagram-edge" markerEnd="url(#def-arrow)" />
            {e.label && e.points[2] && (
              <text x={e.points[2].x + 4} y={e.points[2].y - 4} className="def-diagram-label">
                {e.label}
              </text>
            )}
          </g>
        ))}
        {first && <circle cx={first.x} cy={first.y - 8} r={8} className="def-diagram-terminal" />}
        {last && <circle cx={last.x} cy={last.y + 8} r={8} className="def-diagram-terminal end" />}
        {laid.nodes.map((n) => {
          const selected = n.ref === props.selectedRef;
          return (
            // biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a <button>.
            <g
              key={`${n.x},${n.y}`}
              role="button"
              tabIndex={0}
              aria-label={`${n.ref} (${n.type})`}
              aria-pressed={selected}
              className={selected ? 'def-diagram-node selected' : 'def-diagram-node'}
              onClick={() => props.onSelect(n.ref)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') {
                  event.preventDefault();
                  props.onSelect(n.ref);
                }
              }}
            >
              <rect x={n.x} y={n.y} width={n.width} height={n.height} rx={6} />
              <text x={n.x + n.width / 2} y={n.y + 19} textAnchor="middle" className="def-diagram-name">
                {n.ref.length > 24 ? `${n.ref.slice(0, 23)}…` : n.ref}
              </text>
              <text x={n.x + n.width / 2} y={n.y + 35} textAnchor="middle" className="def-diagram-type">
                {n.type}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
