/**
 * The Task Definition form: the fields workers care about, the input- and output-schema pickers
 * (which do not flag an unregistered schema on this form, docs/api.md "Overview" 9) and
 * whether the schemas are enforced. New definitions are registered, existing ones replaced.
 */
import { type FormEvent, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api } from '../api/client.ts';
import type { TaskDef } from '../api/routes.ts';
import { ErrorMessage, Success } from '../components/error-message.tsx';
import { CheckboxField, NumberField, SelectField, TextField } from '../components/fields.tsx';
import { SchemaPickers } from '../components/schema-picker.tsx';
import { useLoad } from '../components/use-load.ts';
import { useRegistry } from '../components/use-registry.ts';
import { useTitle } from '../components/use-title.ts';
import { withRef } from '../logic/schema-ref.ts';
import { paths } from '../paths.ts';

const NEW_TASK_DEF: TaskDef = {
  name: '',
  description: '',
  retryCount: 3,
  retryLogic: 'FIXED',
  retryDelaySeconds: 60,
  backoffScaleFactor: 1,
  timeoutSeconds: 3600,
  timeoutPolicy: 'TIME_OUT_WF',
  responseTimeoutSeconds: 600,
};

export default function TaskDefEditorPage() {
  const { name } = useParams();
  useTitle(name === undefined ? 'New task definition' : `${name} – Task definition`);
  const loaded = useLoad(`task-def/${name}`, async () =>
    name === undefined
      ? NEW_TASK_DEF
      : await api('GET /api/metadata/taskdefs/{taskType}', { params: { taskType: name } }),
  );
  if (!loaded.data) {
    return (
      <section>
        <h1>Task definition {name}</h1>
        {loaded.loading ? <p aria-busy="true">Loading…</p> : <ErrorMessage error={loaded.error} />}
      </section>
    );
  }
  // A newer copy from the server (the session's cached one came first) starts the form afresh.
  const stamp = loaded.data.updateTime ?? loaded.data.createTime ?? '';
  return <TaskDefForm key={`${name ?? 'new'}/${stamp}`} initial={loaded.data} isNew={name === undefined} />;
}

function TaskDefForm({ initial, isNew }: { initial: TaskDef; isNew: boolean }) {
  const [def, setDef] = useState(initial);
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState<string>();
  const registry = useRegistry();
  const navigate = useNavigate();
  const set = (patch: Partial<TaskDef>) => setDef((current) => ({ ...current, ...patch }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setSaved(undefined);
    try {
      if (isNew) {
        await api('POST /api/metadata/taskdefs', { body: [def] });
        void navigate(paths.taskDef(def.name));
      } else {
        await api('PUT /api/metadata/taskdefs', { body: def });
        setSaved(`Saved task definition ${def.name}`);
      }
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <section>
      <h1>{isNew ? 'New task definition' : `Task definition ${def.name}`}</h1>
      <form onSubmit={(e) => void submit(e)} aria-label="Task Definition">
        <fieldset>
          <legend>Task Definition</legend>
          <div className="form">
            <TextField
              label="Name"
              value={def.name}
              onChange={(v) => set({ name: v })}
              required
              readOnly={!isNew}
            />
            <TextField
              label="Description"
              value={def.description}
              onChange={(v) => set({ description: v })}
            />
            <NumberField
              label="Retry count"
              min={0}
              value={def.retryCount}
              onChange={(v) => set({ retryCount: v ?? 0 })}
            />
            <SelectField
              label="Retry logic"
              value={def.retryLogic}
              options={['FIXED', 'EXPONENTIAL_BACKOFF', 'LINEAR_BACKOFF']}
              onChange={(v) => set({ retryLogic: v as TaskDef['retryLogic'] })}
            />
            <NumberField
              label="Retry delay (s)"
              min={0}
              value={def.retryDelaySeconds}
              onChange={(v) => set({ retryDelaySeconds: v ?? 0 })}
            />
            <NumberField
              label="Timeout (s)"
              min={0}
              value={def.timeoutSeconds}
              onChange={(v) => set({ timeoutSeconds: v ?? 0 })}
            />
            <NumberField
              label="Response timeout (s)"
              min={1}
              value={def.responseTimeoutSeconds}
              onChange={(v) => set({ responseTimeoutSeconds: v ?? 1 })}
            />
            <SelectField
              label="Timeout policy"
              value={def.timeoutPolicy}
              options={['TIME_OUT_WF', 'RETRY', 'ALERT_ONLY']}
              onChange={(v) => set({ timeoutPolicy: v as TaskDef['timeoutPolicy'] })}
            />
            <TextField label="Owner email" value={def.ownerEmail} onChange={(v) => set({ ownerEmail: v })} />
            <SchemaPickers
              labels={['Input schema', 'Output schema']}
              holder={def}
              onChange={(field, ref) => setDef((current) => withRef(current, field, ref))}
              registry={registry.data ?? new Map()}
              flagUnregistered={false}
            />
            <CheckboxField
              label="Enforce schema"
              checked={def.enforceSchema === true}
              onChange={(checked) => set({ enforceSchema: checked })}
            />
          </div>
        </fieldset>
        <div className="toolbar">
          <button type="submit" className="primary">
            Save
          </button>
        </div>
        <ErrorMessage error={error ?? registry.error} />
        <Success message={saved} />
      </form>
    </section>
  );
}
