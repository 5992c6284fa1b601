/**
 * The workflow definition editor: the definition drawn as a diagram (choosing a box selects its
 * task), the Workflow Properties form, the task list with the selected task's form (tasks inside
 * fork branches, switch cases and loops are listed, added, moved and removed in their container's
 * form), and the JSON of the whole definition, kept in step both ways (a form change reprints the
 * JSON; valid JSON typed in the editor updates the forms and the diagram). New definitions are
 * registered (409 if the version exists); existing ones are replaced in place, or saved as the
 * name's next version with the old one kept.
 */
import './workflow-def-editor/editor.css';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api } from '../api/client.ts';
import type { TaskDef, WorkflowDef } from '../api/routes.ts';
import { ErrorMessage, Success } from '../components/error-message.tsx';
import { LazyJsonEditor } from '../components/lazy-json-editor.tsx';
import { TaskForm } from '../components/task-forms.tsx';
import { useLoad } from '../components/use-load.ts';
import { useRegistry } from '../components/use-registry.ts';
import { useTitle } from '../components/use-title.ts';
import { WorkflowPropertiesForm } from '../components/workflow-properties-form.tsx';
import { parseJsonObject, prettyJson } from '../logic/json-text.ts';
import {
  addBranch,
  ancestry,
  childLists,
  newWorkflowDef,
  pathOfRef,
  removeBranch,
  replaceTaskAt,
  syncJoins,
  type TaskPath,
  taskAt,
} from '../logic/workflow-def.ts';
import { paths } from '../paths.ts';
import { DefinitionDiagram } from './workflow-def-editor/definition-diagram.tsx';
import { TaskList } from './workflow-def-editor/task-list.tsx';

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
  // A newer copy from the server (the session's cached one came first) starts the editor afresh.
  const stamp = loaded.data.updateTime ?? loaded.data.createTime ?? '';
  return <Editor key={`${name}/${version}/${stamp}`} initial={loaded.data} isNew={name === undefined} />;
}

function Editor({ initial, isNew }: { initial: WorkflowDef; isNew: boolean }) {
  const [def, setDef] = useState(initial);
  const [text, setText] = useState(() => prettyJson(initial));
  const [selected, setSelected] = useState<TaskPath | undefined>(
    initial.tasks.length > 0 ? ['tasks', 0] : undefined,
  );
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState<string>();
  const [busy, setBusy] = useState(false);
  const registry = useRegistry();
  const taskDefs = useLoad('task-defs', () => api('GET /api/metadata/taskdefs'));
  const navigate = useNavigate();
  const parsed = parseJsonObject(text);
  const registered = new Map<string, TaskDef>((taskDefs.data ?? []).map((d) => [d.name, d]));

  const fromForms = (next: WorkflowDef, select?: TaskPath) => {
    const synced = syncJoins(def, next);
    setDef(synced);
    setText(prettyJson(synced));
    if (select !== undefined) setSelected(select);
    else if (selected && !taskAt(synced, selected)) setSelected(undefined);
  };
  const fromJson = (next: string) => {
    setText(next);
    const result = parseJsonObject(next);
    if (result.ok) setDef(result.value as WorkflowDef);
  };

  const run = async (what: () => Promise<void>) => {
    setError(undefined);
    setSaved(undefined);
    setBusy(true);
    try {
      await what();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const save = () =>
    run(async () => {
      if (isNew) {
        await api('POST /api/metadata/workflow', { body: def });
        void navigate(paths.workflowDef(def.name, def.version));
        return;
      }
      refusedIn(await api('PUT /api/metadata/workflow', { body: [def] }));
      setSaved(`Saved ${def.name} version ${def.version}`);
    });
  const saveAsNewVersion = () =>
    run(async () => {
      refusedIn(await api('PUT /api/metadata/workflow', { query: { newVersion: true }, body: [def] }));
      const latest = await api('GET /api/metadata/workflow/{name}', { params: { name: def.name } });
      void navigate(paths.workflowDef(latest.name, latest.version));
    });

  const tasks = Array.isArray(def.tasks) ? def.tasks : [];
  const task = selected && taskAt(def, selected);
  return (
    <section>
      <h1>{isNew ? 'New workflow definition' : `Workflow ${def.name} version ${def.version}`}</h1>
      <div className="toolbar">
        <button type="button" className="primary" disabled={!parsed.ok || busy} onClick={() => void save()}>
          Save
        </button>
        {!isNew && (
          <button type="button" disabled={!parsed.ok || busy} onClick={() => void saveAsNewVersion()}>
            Save as new version
          </button>
        )}
        {!parsed.ok && (
          <span className="error" role="alert">
            Invalid JSON: {parsed.message}
          </span>
        )}
      </div>
      <ErrorMessage error={error ?? registry.error ?? taskDefs.error} />
      <Success message={saved} />
      <div className="def-editor">
        <DefinitionDiagram
          def={def}
          selectedRef={task?.taskReferenceName}
          onSelect={(ref) => setSelected(pathOfRef(def, ref))}
        />
        <div>
          <WorkflowPropertiesForm
            def={def}
            isNew={isNew}
            registry={registry.data ?? new Map()}
            onChange={fromForms}
          />
          <TaskList
            label="Tasks"
            path={['tasks']}
            def={{ ...def, tasks }}
            selected={selected}
            onSelect={setSelected}
            onEdit={fromForms}
            topLevel
          />
          {task && selected && (
            <>
              <nav className="breadcrumb" aria-label="Selected task">
                {ancestry(def, selected).map((step, i, all) =>
                  i === all.length - 1 ? (
                    <strong key={step.path.join('/')}>{step.task.taskReferenceName}</strong>
                  ) : (
                    <span key={step.path.join('/')}>
                      <button type="button" onClick={() => setSelected(step.path)}>
                        {step.task.taskReferenceName}
                      </button>{' '}
                      ›
                    </span>
                  ),
                )}
              </nav>
              <TaskForm
                key={selected.join('/')}
                task={task}
                registry={registry.data ?? new Map()}
                registered={registered.get(task.name)}
                onChange={(next) => fromForms(replaceTaskAt(def, selected, next))}
              >
                {childLists(task, selected).map((list) => (
                  <TaskList
                    key={list.path.join('/')}
                    label={list.label}
                    path={list.path}
                    def={def}
                    selected={selected}
                    onSelect={setSelected}
                    onEdit={fromForms}
                    owner={selected}
                    onRemoveList={list.removable ? () => fromForms(removeBranch(def, list.path)) : undefined}
                  />
                ))}
                <AddBranch type={task.type} onAdd={(key) => fromForms(addBranch(def, selected, key))} />
              </TaskForm>
            </>
          )}
        </div>
      </div>
      <h2 id="definition-json">Definition JSON</h2>
      <LazyJsonEditor value={text} onChange={fromJson} label="Workflow definition JSON" />
    </section>
  );
}

/** A bulk save answers 200 with what it could not store: that is a failure too. */
function refusedIn(bulk: { bulkErrorResults?: Record<string, string> }): void {
  const refused = Object.entries(bulk.bulkErrorResults ?? {});
  if (refused.length > 0) throw new Error(refused.map(([name, why]) => `${name}: ${why}`).join('; '));
}

/** Adds a branch to a FORK_JOIN, or a named case to a SWITCH or DECISION. */
function AddBranch(props: { type: string; onAdd: (key?: string) => void }) {
  const [key, setKey] = useState('');
  if (props.type === 'FORK_JOIN') {
    return (
      <div className="toolbar">
        <button type="button" onClick={() => props.onAdd()}>
          Add branch
        </button>
      </div>
    );
  }
  if (props.type !== 'SWITCH' && props.type !== 'DECISION') return null;
  return (
    <div className="toolbar">
      <input aria-label="New case value" value={key} onChange={(e) => setKey(e.target.value)} />
      <button
        type="button"
        disabled={key.trim() === ''}
        onClick={() => {
          props.onAdd(key.trim());
          setKey('');
        }}
      >
        Add case
      </button>
    </div>
  );
}
