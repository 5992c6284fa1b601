/**
 * The form of the selected task. Every form has the task's names; Simple and Yield tasks add their
 * input parameters, the input- and output-schema pickers (which flag an unregistered schema), the
 * Enforce schema switch and a note on the inline task definition those live on; FORK_JOIN, SWITCH
 * (DECISION) and DO_WHILE add their own fields and, as `children`, the lists of tasks inside them;
 * JOIN its `joinOn`. Any other task type is edited as JSON in place.
 */
import type { ReactNode } from 'react';
import type { TaskDef } from '../api/routes.ts';
import { parseJsonObject, prettyJson } from '../logic/json-text.ts';
import type { Registry } from '../logic/schema-ref.ts';
import { type Task, taskSchemaHolder, withEnforceSchema, withTaskSchema } from '../logic/workflow-def.ts';
import { CheckboxField, SelectField, TextField } from './fields.tsx';
import { InlineDefinitionNote } from './inline-definition-note.tsx';
import { JsonObjectField } from './json-object-field.tsx';
import { LazyJsonEditor } from './lazy-json-editor.tsx';
import { SchemaPickers } from './schema-picker.tsx';

const TITLES: Record<string, string> = {
  SIMPLE: 'Simple Task',
  YIELD: 'Yield Task',
  FORK_JOIN: 'Fork Join task',
  SWITCH: 'Switch task',
  DECISION: 'Decision task',
  DO_WHILE: 'Do While task',
  JOIN: 'Join task',
};

export interface TaskFormProps {
  task: Task;
  registry: Registry;
  /** The registered task definition of the task's name, if any. */
  registered: TaskDef | undefined;
  onChange: (task: Task) => void;
  /** The lists of tasks inside a FORK_JOIN, SWITCH or DO_WHILE. */
  children?: ReactNode;
}

export function TaskForm(props: TaskFormProps) {
  const { task, onChange } = props;
  const title = TITLES[task.type];
  if (!title) {
    return (
      <fieldset aria-label={`${task.type} task`}>
        <legend>{task.type} task (JSON)</legend>
        <LazyJsonEditor
          value={prettyJson(task)}
          label="Task JSON"
          onChange={(text) => {
            const parsed = parseJsonObject(text);
            if (parsed.ok) onChange(parsed.value as Task);
          }}
        />
      </fieldset>
    );
  }
  const set = (patch: Partial<Task>) => onChange({ ...task, ...patch });
  return (
    <fieldset aria-label={title}>
      <legend>{title}</legend>
      <div className="form">
        <TextField label="Task name" value={task.name} onChange={(name) => set({ name })} required />
        <TextField
          label="Reference name"
          value={task.taskReferenceName}
          onChange={(taskReferenceName) => set({ taskReferenceName })}
          required
        />
        <TextField
          label="Task description"
          value={task.description}
          onChange={(description) => set({ description })}
        />
        {task.type === 'SIMPLE' && (
          <CheckboxField
            label="Optional"
            checked={task.optional === true}
            onChange={(optional) => set({ optional })}
          />
        )}
        <TypeFields {...props} />
        {task.type !== 'JOIN' && (
          <JsonObjectField
            label="Input parameters"
            value={task.inputParameters}
            onChange={(inputParameters) => set({ inputParameters })}
          />
        )}
        {(task.type === 'SIMPLE' || task.type === 'YIELD') && (
          <>
            <SchemaPickers
              labels={['Task input schema', 'Task output schema']}
              holder={taskSchemaHolder(task)}
              onChange={(field, ref) => onChange(withTaskSchema(task, field, ref, props.registered))}
              registry={props.registry}
              flagUnregistered={true}
            />
            <CheckboxField
              label="Enforce task schema"
              checked={task.taskDefinition?.enforceSchema === true}
              onChange={(enforce) => onChange(withEnforceSchema(task, enforce, props.registered))}
            />
          </>
        )}
      </div>
      {task.taskDefinition && (
        <InlineDefinitionNote
          inline={task.taskDefinition}
          registered={props.registered}
          onChange={(taskDefinition) => set({ taskDefinition })}
        />
      )}
      {props.children}
    </fieldset>
  );
}

/** The fields of the container types and JOIN. */
function TypeFields({ task, onChange }: TaskFormProps) {
  const set = (patch: Partial<Task>) => onChange({ ...task, ...patch });
  switch (task.type) {
    case 'SWITCH':
      return (
        <>
          <SelectField
            label="Evaluator type"
            value={task.evaluatorType}
            options={['value-param', 'javascript', 'graaljs']}
            onChange={(evaluatorType) => set({ evaluatorType })}
          />
          <TextField
            label="Expression"
            value={task.expression}
            onChange={(expression) => set({ expression })}
          />
        </>
      );
    case 'DECISION':
      return (
        <TextField
          label="Case value parameter"
          value={task.caseValueParam}
          onChange={(caseValueParam) => set({ caseValueParam })}
        />
      );
    case 'DO_WHILE':
      return (
        <TextField
          label="Loop condition"
          value={task.loopCondition}
          onChange={(loopCondition) => set({ loopCondition })}
        />
      );
    case 'JOIN':
      return (
        <TextField
          label="Join on (reference names, comma separated)"
          value={(task.joinOn ?? []).join(', ')}
          onChange={(text) =>
            set({
              joinOn: text
                .split(',')
                .map((ref) => ref.trim())
                .filter((ref) => ref !== ''),
            })
          }
        />
      );
    default:
      return null;
  }
}
