/**
 * One list of tasks in the workflow editor (the definition's own, a fork branch, a switch case, a
 * loop body): each task a button that selects it, with move and remove buttons, then buttons that
 * add a Simple or Yield task, a menu that adds any other type, and, for a branch or case, one that
 * removes the list itself.
 */
import { useId, useState } from 'react';
import type { WorkflowDef } from '../../api/routes.ts';
import {
  ADDABLE_TYPES,
  type AddableType,
  addTaskTo,
  getIn,
  moveTaskAt,
  removeTaskAt,
  type Task,
  type TaskPath,
} from '../../logic/workflow-def.ts';

export const samePath = (a: TaskPath | undefined, b: TaskPath | undefined) =>
  a !== undefined && b !== undefined && a.length === b.length && a.every((key, i) => key === b[i]);

export function TaskList(props: {
  label: string;
  /** Where the list sits in the definition. */
  path: TaskPath;
  def: WorkflowDef;
  selected: TaskPath | undefined;
  onSelect: (path: TaskPath | undefined) => void;
  onEdit: (def: WorkflowDef, select?: TaskPath) => void;
  /** Removes the list (a branch or a case); absent for lists that must stay. */
  onRemoveList?: () => void;
  /** The task whose list this is (selected when one of its tasks is removed); none at the top level. */
  owner?: TaskPath;
  /** The definition's own list: its buttons say "Add Simple task" without "to …". */
  topLevel?: boolean;
}) {
  const { def, path, label } = props;
  const id = useId();
  const [type, setType] = useState<AddableType>('FORK_JOIN');
  const value = getIn(def, path);
  const list = Array.isArray(value) ? (value as Task[]) : [];
  const to = props.topLevel ? '' : ` to ${label}`;
  const add = (what: AddableType) => {
    const added = addTaskTo(def, path, what);
    props.onEdit(added.def, added.path);
  };
  return (
    <fieldset aria-label={label}>
      <legend>{label}</legend>
      {list.length === 0 && <p className="muted">No tasks.</p>}
      <ol className="task-list">
        {list.map((task, i) => {
          const at = [...path, i];
          const ref = task.taskReferenceName;
          const selected = samePath(at, props.selected);
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: reference names may repeat or be blank while typed.
            <li key={i}>
              <button
                type="button"
                className={selected ? 'selected' : ''}
                aria-pressed={selected}
                onClick={() => props.onSelect(at)}
              >
                {ref} ({task.type})
              </button>
              <button
                type="button"
                aria-label={`Move ${ref} up`}
                onClick={() => props.onEdit(moveTaskAt(def, at, -1))}
              >
                ↑
              </button>
              <button
                type="button"
                aria-label={`Move ${ref} down`}
                onClick={() => props.onEdit(moveTaskAt(def, at, 1))}
              >
                ↓
              </button>
              <button
                type="button"
                className="danger"
                aria-label={`Remove ${ref}`}
                onClick={() => props.onEdit(removeTaskAt(def, at), props.owner)}
              >
                Remove
              </button>
            </li>
          );
        })}
      </ol>
      <div className="toolbar">
        <button type="button" onClick={() => add('SIMPLE')}>
          Add Simple task{to}
        </button>
        <button type="button" onClick={() => add('YIELD')}>
          Add Yield task{to}
        </button>
        <label htmlFor={id} className="muted">
          or
        </label>
        <select
          id={id}
          aria-label={`Type of task to add${to}`}
          value={type}
          onChange={(e) => setType(e.target.value as AddableType)}
        >
          {ADDABLE_TYPES.filter((t) => t !== 'SIMPLE' && t !== 'YIELD').map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => add(type)}>
          Add{to}
        </button>
        {props.onRemoveList && (
          <button type="button" className="danger" onClick={props.onRemoveList}>
            Remove {label}
          </button>
        )}
      </div>
    </fieldset>
  );
}
