/**
 * The drawing the execution diagram and the definition editor's diagram share, from a laid-out
 * diagram (diagram-layout.ts): the arrowhead, loop frames, edges with their case labels, the start
 * and end circles (`DiagramLines`), and a task box that is a button choosing its task (`TaskBox`:
 * the reference name, cut at 24 characters, over a second line). Each diagram keeps its own look
 * through its class prefix (`diagram-…` on the execution page, `def-diagram-…` in the editor).
 */
import type { ReactNode } from 'react';
import type { Diagram, DiagramNode, Point } from './diagram-layout.ts';

const line = (points: Point[]) => points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x},${p.y}`).join(' ');

export function DiagramLines({ diagram, prefix }: { diagram: Diagram; prefix: string }) {
  const first = diagram.edges[0]?.points[0];
  const last = diagram.edges.at(-1)?.points.at(-1);
  const arrow = `${prefix}-arrow`;
  return (
    <>
      <defs>
        <marker
          id={arrow}
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
          key={`${f.x},${f.y}`}
          x={f.x}
          y={f.y}
          width={f.width}
          height={f.height}
          rx={8}
          className={`${prefix}-frame`}
        />
      ))}
      {diagram.edges.map((e) => (
        <g key={`${e.label ?? ''}:${e.points.map((p) => `${p.x},${p.y}`).join(';')}`}>
          <path
            d={line(e.points)}
            className={e.loop ? `${prefix}-edge loop` : `${prefix}-edge`}
            markerEnd={`url(#${arrow})`}
          />
          {e.label && e.points[2] && (
            <text x={e.points[2].x + 4} y={e.points[2].y - 4} className={`${prefix}-label`}>
              {e.label}
            </text>
          )}
        </g>
      ))}
      {first && (
        <circle cx={first.x} cy={first.y - 8} r={8} className={`${prefix}-terminal`} aria-label="start" />
      )}
      {last && (
        <circle cx={last.x} cy={last.y + 8} r={8} className={`${prefix}-terminal end`} aria-label="end" />
      )}
    </>
  );
}

export function TaskBox(props: {
  node: DiagramNode;
  prefix: string;
  className: string;
  label: string;
  selected: boolean;
  /** The line under the reference name. */
  detail: string;
  onSelect?: (ref: string) => void;
  /** The box itself, drawn under the text. */
  box: ReactNode;
  /** Anything drawn over the text. */
  children?: ReactNode;
  /** `data-…` attributes for the group. */
  data?: Record<`data-${string}`, string>;
}) {
  const { node: n, prefix, onSelect } = props;
  return (
    // biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a <button>.
    <g
      {...props.data}
      role="button"
      tabIndex={0}
      aria-label={props.label}
      aria-pressed={props.selected}
      className={props.className}
      onClick={() => onSelect?.(n.ref)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          onSelect?.(n.ref);
        }
      }}
    >
      {props.box}
      <text x={n.x + n.width / 2} y={n.y + 19} textAnchor="middle" className={`${prefix}-name`}>
        {n.ref.length > 24 ? `${n.ref.slice(0, 23)}…` : n.ref}
      </text>
      <text x={n.x + n.width / 2} y={n.y + 35} textAnchor="middle" className={`${prefix}-type`}>
        {props.detail}
      </text>
      {props.children}
    </g>
  );
}
