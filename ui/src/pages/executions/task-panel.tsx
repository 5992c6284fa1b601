/**
 * The chosen task of a run, in tabs as in Conductor's UI: Summary (type, status, worker, poll and
 * retry counts, scheduled / start / end / update times, durations, the reason it did not complete,
 * a link to a SUB_WORKFLOW's child run), Input, Output, Logs (`GET /api/tasks/{taskId}/log`, loaded
 * when the tab opens), JSON (the whole task as the API answers it) and Definition (the task of the
 * workflow definition it runs). A task run more than once (retries, loop iterations) offers its
 * other attempts.
 */
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client.ts';
import type { ApiTask } from '../../api/routes.ts';
import { ErrorMessage } from '../../components/error-message.tsx';
import { useLoad } from '../../components/use-load.ts';
import { durationBetween, formatDateTime, formatDuration } from '../../logic/time.ts';
import { attemptLabel } from './run-tasks.ts';
import { Tabs } from './tabs.tsx';

const TABS = ['Summary', 'Input', 'Output', 'Logs', 'JSON', 'Definition'] as const;
type Tab = (typeof TABS)[number];

const pretty = (value: unknown) => JSON.stringify(value ?? {}, null, 2);

export interface TaskPanelProps {
  task: ApiTask;
  /** Every attempt of the same definition task, the chosen one among them. */
  attempts: ApiTask[];
  onChoose: (task: ApiTask) => void;
  onClose: () => void;
}

export function TaskPanel({ task, attempts, onChoose, onClose }: TaskPanelProps) {
  const [tab, setTab] = useState<Tab>('Summary');
  return (
    <aside className="task-details" aria-label={`Task ${task.referenceTaskName}`}>
      <div className="toolbar">
        <h3>
          {task.referenceTaskName} <span className="muted">{task.taskType}</span>
        </h3>
        <span className={`status status-${task.status}`}>{task.status}</span>
        <button type="button" onClick={onClose} aria-label="Close the task panel">
          ×
        </button>
      </div>
      {attempts.length > 1 && (
        <label className="attempt">
          Attempt
          <select
            value={task.taskId}
            onChange={(e) => {
              const next = attempts.find((t) => t.taskId === e.target.value);
              if (next) onChoose(next);
            }}
          >
            {attempts.map((t) => (
              <option key={t.taskId} value={t.taskId}>
                {attemptLabel(t)}
              </option>
            ))}
          </select>
        </label>
      )}
      <Tabs label="Task details" names={TABS} current={tab} onChoose={setTab}>
        {tab === 'Summary' && <TaskSummary task={task} />}
        {tab === 'Input' && <pre className="run-json">{pretty(task.inputData)}</pre>}
        {tab === 'Output' && <pre className="run-json">{pretty(task.outputData)}</pre>}
        {tab === 'Logs' && <TaskLogs taskId={task.taskId} />}
        {tab === 'JSON' && <pre className="run-json">{pretty(task)}</pre>}
        {tab === 'Definition' && <pre className="run-json">{pretty(task.workflowTask)}</pre>}
      </Tabs>
    </aside>
  );
}

function TaskSummary({ task }: { task: ApiTask }) {
  const rows: [string, ReactNode][] = [
    ['Task type', task.taskType],
    ['Task name', task.taskDefName],
    ['Reference', task.referenceTaskName],
    ['Task id', task.taskId],
    ...(task.iteration > 0 ? ([['Iteration', task.iteration]] as [string, ReactNode][]) : []),
    ['Sequence', task.seq],
    ['Retry count', task.retryCount],
    ['Poll count', task.pollCount],
    ['Worker', task.workerId || '—'],
    ...(task.domain ? ([['Domain', task.domain]] as [string, ReactNode][]) : []),
    ['Scheduled', formatDateTime(task.scheduledTime)],
    ['Started', formatDateTime(task.startTime)],
    ['Ended', formatDateTime(task.endTime)],
    ['Updated', formatDateTime(task.updateTime)],
    ['Queue wait', task.startTime > 0 ? formatDuration(task.queueWaitTime) : '—'],
    ['Duration', formatDuration(durationBetween(task.startTime, task.endTime || undefined))],
  ];
  if (task.callbackAfterSeconds > 0) rows.push(['Callback after', `${task.callbackAfterSeconds} s`]);
  if (task.subWorkflowId) {
    rows.push([
      'Sub-workflow',
      <Link key="child" to={`/executions/${encodeURIComponent(task.subWorkflowId)}`}>
        {task.subWorkflowId}
      </Link>,
    ]);
  }
  return (
    <>
      {task.reasonForIncompletion && (
        <p className="error">
          <strong>Reason for incompletion:</strong> {task.reasonForIncompletion}
        </p>
      )}
      <dl className="facts">
        {rows.map(([label, value]) => (
          <div key={label} className="fact">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

function TaskLogs({ taskId }: { taskId: string }) {
  const logs = useLoad(`task-log:${taskId}`, () =>
    api('GET /api/tasks/{taskId}/log', { params: { taskId } }),
  );
  if (logs.error) return <ErrorMessage error={logs.error} />;
  if (!logs.data) return <p aria-busy="true">Loading the logs…</p>;
  if (logs.data.length === 0) return <p className="muted">No logs.</p>;
  return (
    <ul className="logs" aria-label="Task logs">
      {logs.data.map((entry) => (
        <li key={`${entry.createdTime}-${entry.log}`}>
          <time>{formatDateTime(entry.createdTime)}</time> {entry.log}
        </li>
      ))}
    </ul>
  );
}
