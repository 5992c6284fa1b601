/**
 * The workflow definition editor: the Workflow Properties form, the task list with the selected
 * task's form, and the JSON of the whole definition beside them, kept in step both ways (a form
 * change reprints the JSON; valid JSON typed in the editor updates the forms). New definitions are
 * registered (409 if the version exists); existing ones are replaced in place.
 */
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api } from '../api/client.ts';
import type { WorkflowDef } from '../api/routes.ts';
import { ErrorMessage, Success } from '../components/error-message.tsx';
import { LazyJsonEditor } from '../components/lazy-json-editor.tsx';
import { TaskForm } from '../components/task-forms.tsx';
import { useLoad } from '../components/use-load.ts';
import { useRegistry } from '../components/use-registry.ts';
import { useTitle } from '../components/use-title.ts';
import { WorkflowPropertiesForm } from '../components/workflow-properties-form.tsx';
import { parseJsonObject, prettyJson } from '../logic/json-text.ts';
import { moveTask, newTask, newWorkflowDef, removeTask, replaceTask } from '../logic/workflow-def.ts';
import { paths } from '../paths.ts';

export default function WorkflowDefEditorPage() {
  const { name, version } = useParams();
  useTitle(
    name === undefined ? 'New workflow definition' : `${name}${version ? ` v${version}` : ''} – Workflow`,
  );
  const loaded = useLoad(`workflow-def/${name}/${version}`, async () =>
    name === undefined
      ? newWorkflowDef()
      : await api('GET /api/metadata/workflow/{name}', {
          params: { name },
          query: { version: version === undefined ? undefined : Number(version) },
        }),
  );
  if (!loaded.data) {
    return (
      <section>
        <h1>Workflow definition {name}</h1>
        {loaded.loading ? <p aria-busy="true">Loading…</p> : <ErrorMessage error={loaded.error} />}
      </section>
    );
  }
  return <Editor key={`${name}/${version}`} initial={loaded.data} isNew={name === undefined} />;
}

function Editor({ initial, isNew }: { initial: WorkflowDef; isNew: boolean }) {
  const [def, setDef] = useState(initial);
  const [text, setText] = useState(() => prettyJson(initial));
  const [selected, setSelected] = useState<number | undefined>(initial.tasks.length > 0 ? 0 : undefined);
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState<string>();
  const registry = useRegistry();
  const navigate = useNavigate();
  const parsed = parseJsonObject(text);

  const fromForms = (next: WorkflowDef) => {
    setDef(next);
    setText(prettyJson(next));
  };
  const fromJson = (next: string) => {
    setText(next);
    const result = parseJsonObject(next);
    if (result.ok) setDef(result.value as WorkflowDef);
  };
  const add = (type: 'SIMPLE' | 'YIELD') => {
    fromForms({ ...def, tasks: [...def.tasks, newTask(def, type)] });
    setSelected(def.tasks.length);
  };

  const save = async () => {
    setError(undefined);
    setSaved(undefined);
    try {
      if (isNew) {
        await api('POST /api/metadata/workflow', { body: def });
        void navigate(paths.workflowDef(def.name, def.version));
      } else {
        await api('PUT /api/metadata/workflow', { body: [def] });
        setSaved(`Saved ${def.name} version ${def.version}`);
      }
    } catch (failure) {
      setError(failure);
    }
  };

  const task = selected === undefined ? undefined : def.tasks[selected];
  const tasks = Array.isArray(def.tasks) ? def.tasks : [];
  return (
    <section>
      <h1>{isNew ? 'New workflow definition' : `Workflow ${def.name} version ${def.version}`}</h1>
      <div className="toolbar">
        <button type="button" className="primary" disabled={!parsed.ok} onClick={() => void save()}>
          Save
        </button>
        {!parsed.ok && (
          <span className="error" role="alert">
            Invalid JSON: {parsed.message}
          </span>
        )}
      </div>
      <ErrorMessage error={error ?? registry.error} />
      <Success message={saved} />
      <div className="split">
        <div>
          <WorkflowPropertiesForm
            def={def}
            isNew={isNew}
            registry={registry.data ?? new Map()}
            onChange={fromForms}
          />
          <fieldset aria-label="Tasks">
            <legend>Tasks</legend>
            <ol className="task-list">
              {tasks.map((t, i) => (
                <li key={t.taskReferenceName}>
                  <button
                    type="button"
                    className={i === selected ? 'selected' : ''}
                    aria-pressed={i === selected}
                    onClick={() => setSelected(i)}
                  >
                    {t.taskReferenceName} ({t.type})
                  </button>
                  <button
                    type="button"
                    aria-label={`Move ${t.taskReferenceName} up`}
                    onClick={() => fromForms(moveTask(def, i, -1))}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    aria-label={`Move ${t.taskReferenceName} down`}
                    onClick={() => fromForms(moveTask(def, i, 1))}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Remove ${t.taskReferenceName}`}
                    onClick={() => {
                      fromForms(removeTask(def, i));
                      setSelected(undefined);
                    }}
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ol>
            <div className="toolbar">
              <button type="button" onClick={() => add('SIMPLE')}>
                Add Simple task
              </button>
              <button type="button" onClick={() => add('YIELD')}>
                Add Yield task
              </button>
            </div>
          </fieldset>
          {task && selected !== undefined && (
            <TaskForm
              key={selected}
              task={task}
              registry={registry.data ?? new Map()}
              onChange={(next) => fromForms(replaceTask(def, selected, next))}
            />
          )}
        </div>
        <div>
          <h2 id="definition-json">Definition JSON</h2>
          <LazyJsonEditor value={text} onChange={fromJson} label="Workflow definition JSON" />
        </div>
      </div>
    </section>
  );
}
