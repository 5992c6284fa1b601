/**
 * One execution: its summary, the actions its status allows, the diagram of its definition coloured
 * by task status (loaded lazily), and the task list; choosing a task (in the list or the diagram)
 * shows its input, output, failure reason and logs.
 */
import { lazy, Suspense, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import type { ApiTask } from '../../api/routes.ts';
import { ErrorMessage } from '../../components/error-message.tsx';
import { useLoad } from '../../components/use-load.ts';
import { useTitle } from '../../components/use-title.ts';
import { formatDateTime } from '../../logic/time.ts';
import { ACTIONS, type ActionInfo, allowed, perform } from './actions.ts';

const WorkflowDiagram = lazy(() => import('./diagram.tsx'));

const pretty = (value: unknown) => JSON.stringify(value ?? {}, null, 2);

export default function ExecutionView() {
  const workflowId = useParams().workflowId ?? '';
  const run = useLoad(workflowId, () =>
    api('GET /api/workflow/{workflowId}', { params: { workflowId }, query: { includeTasks: true } }),
  );
  const [selected, setSelected] = useState<string>();
  const [asking, setAsking] = useState<ActionInfo>();
  const [reason, setReason] = useState('');
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  useTitle(run.data ? `${run.data.workflowName} v${run.data.workflowVersion} – Execution` : 'Execution');

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
  const chosen = tasks.filter((t) => t.referenceTaskName.replace(/__\d+$/, '') === selected).at(-1);

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
        <button type="button" onClick={() => void run.reload()} disabled={busy}>
          Refresh
        </button>
      </div>
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
      <dl className="facts">
        <dt>Workflow id</dt>
        <dd>{data.workflowId}</dd>
        <dt>Correlation id</dt>
        <dd>{data.correlationId}</dd>
        <dt>Started</dt>
        <dd>{formatDateTime(data.startTime)}</dd>
        <dt>Ended</dt>
        <dd>{formatDateTime(data.endTime)}</dd>
        {data.reasonForIncompletion && (
          <>
            <dt>Reason</dt>
            <dd>{data.reasonForIncompletion}</dd>
          </>
        )}
      </dl>
      <h2>Diagram</h2>
      <Suspense fallback={<p aria-busy="true">Loading the diagram…</p>}>
        <WorkflowDiagram
          tasks={data.workflowDefinition?.tasks ?? []}
          runTasks={tasks}
          selectedRef={selected}
          onSelect={setSelected}
        />
      </Suspense>
      <h2>Tasks</h2>
      <div className="split">
        <table aria-label="Tasks">
          <thead>
            <tr>
              <th>#</th>
              <th>Reference</th>
              <th>Type</th>
              <th>Status</th>
              <th>Retry</th>
              <th>Started</th>
              <th>Ended</th>
            </tr>
          </thead>
          <tbody>
            {tasks.map((task) => (
              <tr key={task.taskId} className={task === chosen ? 'selected' : undefined}>
                <td>{task.seq}</td>
                <td>
                  <button
                    type="button"
                    className="link"
                    onClick={() => setSelected(task.referenceTaskName.replace(/__\d+$/, ''))}
                  >
                    {task.referenceTaskName}
                  </button>
                </td>
                <td>{task.taskType}</td>
                <td>
                  <span className={`status status-${task.status}`}>{task.status}</span>
                </td>
                <td>{task.retryCount}</td>
                <td>{formatDateTime(task.startTime)}</td>
                <td>{formatDateTime(task.endTime)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {chosen && <TaskDetails task={chosen} />}
      </div>
      <h2>Input and output</h2>
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
    </section>
  );
}

function TaskDetails({ task }: { task: ApiTask }) {
  const logs = useLoad(task.taskId, () =>
    api('GET /api/tasks/{taskId}/log', { params: { taskId: task.taskId } }),
  );
  return (
    <aside className="task-details" aria-label={`Task ${task.referenceTaskName}`}>
      <h3>
        {task.referenceTaskName} <span className="muted">{task.taskType}</span>
      </h3>
      {task.reasonForIncompletion && <p className="error">{task.reasonForIncompletion}</p>}
      <h4>Input</h4>
      <pre className="run-json">{pretty(task.inputData)}</pre>
      <h4>Output</h4>
      <pre className="run-json">{pretty(task.outputData)}</pre>
      <h4>Logs</h4>
      <ErrorMessage error={logs.error} />
      {logs.data && logs.data.length === 0 && <p className="muted">No logs.</p>}
      {logs.data && logs.data.length > 0 && (
        <ul className="logs" aria-label="Task logs">
          {logs.data.map((entry) => (
            <li key={`${entry.createdTime}-${entry.log}`}>
              <time>{new Date(entry.createdTime).toLocaleTimeString()}</time> {entry.log}
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}
