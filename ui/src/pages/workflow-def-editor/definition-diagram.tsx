/**
 * The definition being edited, drawn as a diagram: the execution page's layout
 * (pages/executions/diagram-layout.ts: fork branches and switch cases side by side, loop bodies in
 * a frame), every box a button that selects its task for editing. Redrawn on every edit; a
 * definition the layout cannot read (JSON being typed) is said in words.
 */
import { useMemo } from 'react';
import type { WorkflowDef } from '../../api/routes.ts';
import { type Diagram, type DiagramTask, layoutDiagram } from '../executions/diagram-layout.ts';
import { DiagramLines, TaskBox } from '../executions/diagram-parts.tsx';

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
  return (
    <figure className="def-diagram" aria-label="Definition diagram">
      <svg width={laid.width} height={laid.height} viewBox={`0 0 ${laid.width} ${laid.height}`}>
        <title>The tasks of the definition; choose one to edit it</title>
        <DiagramLines diagram={laid} prefix="def-diagram" />
        {laid.nodes.map((n) => {
          const selected = n.ref === props.selectedRef;
          return (
            <TaskBox
              key={`${n.x},${n.y}`}
              node={n}
              prefix="def-diagram"
              className={selected ? 'def-diagram-node selected' : 'def-diagram-node'}
              label={`${n.ref} (${n.type})`}
              selected={selected}
              detail={n.type}
              onSelect={props.onSelect}
              box={<rect x={n.x} y={n.y} width={n.width} height={n.height} rx={6} />}
            />
          );
        })}
      </svg>
    </figure>
  );
}
