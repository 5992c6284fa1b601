/**
 * One execution: its summary (with its duration, and its parent run when it is a sub-workflow),
 * the actions its status allows, the refresh control (auto-refresh while the run is live), the
 * diagram of its definition coloured by task status (loaded lazily) with the chosen task's panel
 * beside it, and tabs below: the task list (durations, DO_WHILE iterations, filters), the timeline,
 * the run's input and output, and the run's JSON. Choosing a task (in the diagram, the list or the
 * timeline) opens it in the task panel; the panel never sits over the task list.
 */
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import type { ApiTask, ApiWorkflow } from '../../api/routes.ts';
import { ErrorMessage } from '../../components/error-message.tsx';
import { useLoad } from '../../components/use-load.ts';
import { useTitle } from '../../components/use-title.ts';
import { durationBetween, formatDateTime, formatDuration } from '../../logic/time.ts';
import { ACTIONS, type ActionInfo, allowed, perform } from './actions.ts';
import { RefreshControl } from './refresh-control.tsx';
import {
  attemptsOf,
  baseRef,
  filterTasks,
  isLive,
  iterationsOf,
  NO_TASK_FILTER,
  statusesOf,
  type TaskFilter,
} from './run-tasks.ts';
import { Tabs } from './tabs.tsx';
import { TaskPanel } from './task-panel.tsx';
import { TimelineView } from './timeline.tsx';

const WorkflowDiagram = lazy(() => import('./diagram.tsx'));

const pretty = (value: unknown) => JSON.stringify(value ?? {}, null, 2);
const runPath = (workflowId: string) => `/executions/${encodeURIComponent(workflowId)}`;

const VIEWS = ['Task list', 'Timeline', 'Input/Output', 'JSON'] as const;
type View = (typeof VIEWS)[number];

/** The chosen task: a definition reference (from the diagram) or one task row. */
interface Choice {
  ref: string;
  taskId?: string;
}

export default function ExecutionView() {
  const workflowId = useParams().workflowId ?? '';
  const run = useLoad(workflowId, () =>
    api('GET /api/workflow/{workflowId}', { params: { workflowId }, query: { includeTasks: true } }),
  );
  const [choice, setChoice] = useState<Choice>();
  const [view, setView] = useState<View>('Task list');
  const [asking, setAsking] = useState<ActionInfo>();
  const [reason, setReason] = useState('');
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [updatedAt, setUpdatedAt] = useState(0);
  const panel = useRef<HTMLDivElement>(null);

  const loaded = run.data;
  useEffect(() => {
    if (loaded) setUpdatedAt(Date.now());
  }, [loaded]);
  // A task chosen below the diagram brings its panel into view.
  useEffect(() => {
    if (choice) panel.current?.scrollIntoView?.({ block: 'nearest' });
  }, [choice]);
  useTitle(loaded ? `${loaded.workflowName} v${loaded.workflowVersion} – Execution` : 'Execution');

  const act = async (info: ActionInfo) => {
    setAsking(undefined);
    setBusy(true);
    setFailure(undefined);
    try {
      await perform(info.action, workflowId, reason);
      setReason('');
      await run.reload();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  if (run.error && !run.data) {
    return (
      <section>
        <h1>Execution</h1>
        <ErrorMessage error={run.error} />
        <Link to="/executions">Back to executions</Link>
      </section>
    );
  }
  const data = run.data;
  if (!data) return <p aria-busy="true">Loading…</p>;
  const tasks = data.tasks ?? [];
  const attempts = choice ? attemptsOf(tasks, choice.ref) : [];
  const chosen = attempts.find((t) => t.taskId === choice?.taskId) ?? attempts.at(-1);
  const chooseTask = (task: ApiTask) =>
    setChoice({ ref: baseRef(task.referenceTaskName), taskId: task.taskId });

  return (
    <section>
      <div className="toolbar">
        <h1>
          {data.workflowName} <span className="muted">v{data.workflowVersion}</span>
        </h1>
        <span className={`status status-${data.status}`} data-testid="run-status">
          {data.status}
        </span>
        <span className="spacer" />
        {ACTIONS.filter((a) => allowed(a.action, data.status)).map((info) => (
          <button
            key={info.action}
            type="button"
            disabled={busy}
            className={info.action === 'terminate' ? 'danger' : undefined}
            onClick={() => (info.confirm ? setAsking(info) : void act(info))}
          >
            {info.label}
          </button>
        ))}
      </div>
      <RefreshControl
        live={isLive(data.status)}
        loading={run.loading}
        updatedAt={updatedAt}
        busy={busy}
        onRefresh={() => void run.reload()}
      />
      {asking && (
        <dialog open aria-label={`${asking.label} the run`}>
          <p>{asking.confirm}</p>
          {asking.action === 'terminate' && (
            <label>
              Reason
              <input value={reason} onChange={(e) => setReason(e.target.value)} />
            </label>
          )}
          <div className="toolbar">
            <button type="button" className="danger" onClick={() => void act(asking)}>
              {asking.label}
            </button>
            <button type="button" onClick={() => setAsking(undefined)}>
              Cancel
            </button>
          </div>
        </dialog>
      )}
      <ErrorMessage error={failure ?? run.error} />
      <RunFacts run={data} />
      <div className={chosen ? 'exec-workbench with-panel' : 'exec-workbench'}>
        <div className="exec-diagram">
          <Suspense fallback={<p aria-busy="true">Loading the diagram…</p>}>
            <WorkflowDiagram
              tasks={data.workflowDefinition?.tasks ?? []}
              runTasks={tasks}
              selectedRef={choice?.ref}
              onSelect={(ref) => setChoice({ ref })}
            />
          </Suspense>
        </div>
        {chosen && (
          <div ref={panel} className="exec-panel">
            <TaskPanel
              key={chosen.taskId}
              task={chosen}
              attempts={attempts}
              onChoose={chooseTask}
              onClose={() => setChoice(undefined)}
            />
          </div>
        )}
      </div>
      <Tabs label="Run views" names={VIEWS} current={view} onChoose={setView}>
        {view === 'Task list' && <TaskTable tasks={tasks} chosenId={chosen?.taskId} onChoose={chooseTask} />}
        {view === 'Timeline' && (
          <div className="table-scroll">
            <TimelineView
              tasks={tasks}
              selectedId={chosen?.taskId}
              onSelect={(t) => chooseTask(t as ApiTask)}
            />
          </div>
        )}
        {view === 'Input/Output' && (
          <div className="split">
            <div>
              <h3>Input</h3>
              <pre className="run-json">{pretty(data.input)}</pre>
            </div>
            <div>
              <h3>Output</h3>
              <pre className="run-json">{pretty(data.output)}</pre>
            </div>
          </div>
        )}
        {view === 'JSON' && <pre className="run-json tall">{pretty(data)}</pre>}
      </Tabs>
    </section>
  );
}

function RunFacts({ run }: { run: ApiWorkflow }) {
  return (
    <dl className="facts">
      <dt>Workflow id</dt>
      <dd>{run.workflowId}</dd>
      {run.correlationId && (
        <>
          <dt>Correlation id</dt>
          <dd>{run.correlationId}</dd>
        </>
      )}
      {run.parentWorkflowId && (
        <>
          <dt>Parent workflow</dt>
          <dd>
            <Link to={runPath(run.parentWorkflowId)}>{run.parentWorkflowId}</Link>
            {run.parentWorkflowTaskId && <span className="muted"> (task {run.parentWorkflowTaskId})</span>}
          </dd>
        </>
      )}
      <dt>Started</dt>
      <dd>{formatDateTime(run.startTime)}</dd>
      <dt>Ended</dt>
      <dd>{formatDateTime(run.endTime)}</dd>
      <dt>Duration</dt>
      <dd>
        {formatDuration(durationBetween(run.startTime, run.endTime || undefined))}
        {isLive(run.status) && <span className="muted"> so far</span>}
      </dd>
      {run.reasonForIncompletion && (
        <>
          <dt>Reason</dt>
          <dd>{run.reasonForIncompletion}</dd>
        </>
      )}
    </dl>
  );
}

function TaskTable({
  tasks,
  chosenId,
  onChoose,
}: {
  tasks: ApiTask[];
  chosenId?: string;
  onChoose: (task: ApiTask) => void;
}) {
  const [filter, setFilter] = useState<TaskFilter>(NO_TASK_FILTER);
  const iterations = iterationsOf(tasks);
  const shown = filterTasks(tasks, filter);
  return (
    <>
      <div className="toolbar task-filters">
        {iterations.length > 0 && (
          <label>
            Iteration
            <select
              value={filter.iteration}
              onChange={(e) => setFilter({ ...filter, iteration: Number(e.target.value) })}
            >
              <option value={0}>All</option>
              {iterations.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          Task status
          <select value={filter.status} onChange={(e) => setFilter({ ...filter, status: e.target.value })}>
            <option value="">All</option>
            {statusesOf(tasks).map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <span className="muted">
          {shown.length} of {tasks.length} tasks
        </span>
      </div>
      <div className="table-scroll">
        <table aria-label="Tasks" className="task-table">
          <thead>
            <tr>
              <th>#</th>
              <th>Reference</th>
              <th>Type</th>
              <th>Status</th>
              <th>Iteration</th>
              <th>Retry</th>
              <th>Started</th>
              <th>Ended</th>
              <th>Duration</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((task) => (
              <tr key={task.taskId} className={task.taskId === chosenId ? 'selected' : undefined}>
                <td>{task.seq}</td>
                <td className="wrap">
                  <button type="button" className="link" onClick={() => onChoose(task)}>
                    {task.referenceTaskName}
                  </button>
                  {task.subWorkflowId && (
                    <>
                      {' '}
                      <Link to={runPath(task.subWorkflowId)} title={task.subWorkflowId}>
                        child run
                      </Link>
                    </>
                  )}
                </td>
                <td className="wrap">{task.taskType}</td>
                <td>
                  <span className={`status status-${task.status}`}>{task.status}</span>
                </td>
                <td>{task.iteration > 0 ? task.iteration : '—'}</td>
                <td>{task.retryCount}</td>
                <td className="nowrap">{formatDateTime(task.startTime)}</td>
                <td className="nowrap">{formatDateTime(task.endTime)}</td>
                <td className="nowrap">
                  {formatDuration(
                    task.startTime > 0
                      ? durationBetween(task.startTime, task.endTime || undefined)
                      : undefined,
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
