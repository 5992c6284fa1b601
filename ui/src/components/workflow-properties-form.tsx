/** The Workflow Properties form, with the workflow's input- and output-schema pickers (flagged when unregistered). */
import type { WorkflowDef } from '../api/routes.ts';
import { type Registry, withRef } from '../logic/schema-ref.ts';
import { CheckboxField, NumberField, SelectField, TextField } from './fields.tsx';
import { SchemaPickers } from './schema-picker.tsx';

export function WorkflowPropertiesForm(props: {
  def: WorkflowDef;
  isNew: boolean;
  registry: Registry;
  onChange: (def: WorkflowDef) => void;
}) {
  const { def, onChange } = props;
  const set = (patch: Partial<WorkflowDef>) => onChange({ ...def, ...patch });
  return (
    <fieldset aria-label="Workflow Properties">
      <legend>Workflow Properties</legend>
      <div className="form">
        <TextField
          label="Workflow name"
          value={def.name}
          onChange={(name) => set({ name })}
          required
          readOnly={!props.isNew}
        />
        <NumberField
          label="Version"
          min={1}
          value={def.version}
          onChange={(version) => set({ version: version ?? 1 })}
        />
        <TextField
          label="Description"
          value={def.description}
          onChange={(description) => set({ description })}
        />
        <TextField
          label="Owner email"
          value={def.ownerEmail}
          onChange={(ownerEmail) => set({ ownerEmail })}
        />
        <NumberField
          label="Timeout (s)"
          min={0}
          value={def.timeoutSeconds}
          onChange={(timeoutSeconds) => set({ timeoutSeconds: timeoutSeconds ?? 0 })}
        />
        <SelectField
          label="Timeout policy"
          value={def.timeoutPolicy}
          options={['ALERT_ONLY', 'TIME_OUT_WF']}
          onChange={(v) => set({ timeoutPolicy: v as WorkflowDef['timeoutPolicy'] })}
        />
        <CheckboxField
          label="Restartable"
          checked={def.restartable !== false}
          onChange={(restartable) => set({ restartable })}
        />
        <TextField
          label="Failure workflow"
          value={def.failureWorkflow}
          onChange={(failureWorkflow) => set({ failureWorkflow })}
        />
        <SchemaPickers
          labels={['Workflow input schema', 'Workflow output schema']}
          holder={def}
          onChange={(field, ref) => onChange(withRef(def, field, ref))}
          registry={props.registry}
          flagUnregistered={true}
        />
        <CheckboxField
          label="Enforce schema"
          checked={def.enforceSchema !== false}
          onChange={(enforceSchema) => set({ enforceSchema })}
        />
      </div>
    </fieldset>
  );
}
