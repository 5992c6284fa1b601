/**
 * The form of the selected task: Simple Task and Yield Task forms (names, input parameters, the
 * input- and output-schema pickers, which flag an unregistered schema), and any other task type
 * edited as JSON in place.
 */

import { parseJsonObject, prettyJson } from '../logic/json-text.ts';
import type { Registry } from '../logic/schema-ref.ts';
import { type Task, taskSchemaHolder, withTaskSchema } from '../logic/workflow-def.ts';
import { CheckboxField, TextField } from './fields.tsx';
import { JsonObjectField } from './json-object-field.tsx';
import { LazyJsonEditor } from './lazy-json-editor.tsx';
import { SchemaPickers } from './schema-picker.tsx';

export function TaskForm(props: { task: Task; registry: Registry; onChange: (task: Task) => void }) {
  const { task, onChange } = props;
  if (task.type === 'SIMPLE' || task.type === 'YIELD') {
    const title = task.type === 'SIMPLE' ? 'Simple Task' : 'Yield Task';
    const holder = taskSchemaHolder(task);
    return (
      <fieldset aria-label={title}>
        <legend>{title}</legend>
        <div className="form">
          <TextField
            label="Task name"
            value={task.name}
            onChange={(name) => onChange({ ...task, name })}
            required
          />
          <TextField
            label="Reference name"
            value={task.taskReferenceName}
            onChange={(taskReferenceName) => onChange({ ...task, taskReferenceName })}
            required
          />
          <TextField
            label="Task description"
            value={task.description}
            onChange={(description) => onChange({ ...task, description })}
          />
          {task.type === 'SIMPLE' && (
            <CheckboxField
              label="Optional"
              checked={task.optional === true}
              onChange={(optional) => onChange({ ...task, optional })}
            />
          )}
          <JsonObjectField
            label="Input parameters"
            value={task.inputParameters}
            onChange={(inputParameters) => onChange({ ...task, inputParameters })}
          />
          <SchemaPickers
            labels={['Task input schema', 'Task output schema']}
            holder={holder}
            onChange={(field, ref) => onChange(withTaskSchema(task, field, ref))}
            registry={props.registry}
            flagUnregistered={true}
          />
        </div>
      </fieldset>
    );
  }
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
