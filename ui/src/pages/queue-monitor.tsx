/**
 * The queue monitor (`/queue-monitor`): every worker queue with the tasks waiting in it, its
 * domain, the workers that polled it and when they last did (`GET /api/tasks/queue/all` and
 * `GET /api/tasks/queue/polldata/all`), filterable by task type; Refresh reads both again. A queue
 * with tasks waiting and no worker polling is flagged, the usual reason a run does not move.
 */
import { useDeferredValue, useState } from 'react';
import { api } from '../api/client.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { useLoad } from '../components/use-load.ts';
import { useTitle } from '../components/use-title.ts';
import { queueRows } from '../logic/queue-rows.ts';
import { durationBetween, formatDateTime, formatDuration } from '../logic/time.ts';
import './runs.css';

export default function QueueMonitorPage() {
  useTitle('Queue monitor');
  const queues = useLoad('queue-monitor', async () => {
    const [sizes, polls] = await Promise.all([
      api('GET /api/tasks/queue/all'),
      api('GET /api/tasks/queue/polldata/all'),
    ]);
    return { rows: queueRows(sizes, polls), at: Date.now() };
  });
  const [filter, setFilter] = useState('');
  const wanted = useDeferredValue(filter.trim().toLowerCase());
  const data = queues.error ? undefined : queues.data;
  const rows = (data?.rows ?? []).filter((r) => wanted === '' || r.queue.toLowerCase().includes(wanted));
  return (
    <section>
      <div className="toolbar">
        <h1>Queue monitor</h1>
        <span className="spacer" />
        {data && <span className="muted">Read at {formatDateTime(data.at)}</span>}
        <button type="button" onClick={() => void queues.reload()} disabled={queues.loading}>
          Refresh
        </button>
      </div>
      <div className="toolbar">
        <label htmlFor="queue-filter">Filter by task type</label>
        <input id="queue-filter" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
        {data && (
          <span className="muted">
            {rows.length} of {data.rows.length} queues
          </span>
        )}
      </div>
      <ErrorMessage error={queues.error} />
      {queues.loading && !data && !queues.error && <p aria-busy="true">Loading…</p>}
      {data && data.rows.length === 0 && (
        <p className="muted">No worker queues yet: none holds a task and no worker has polled.</p>
      )}
      {rows.length > 0 && (
        <div className="table-scroll">
          <table aria-label="Task queues">
            <thead>
              <tr>
                <th>Task type</th>
                <th>Domain</th>
                <th>Waiting</th>
                <th>Workers</th>
                <th>Last poll</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.queue} data-queue={r.queue}>
                  <td className="wrap">{r.taskType}</td>
                  <td>{r.domain || <span className="muted">none</span>}</td>
                  <td>
                    {r.size}
                    {r.size > 0 && r.workers.length === 0 && <div className="flag">No worker has polled</div>}
                  </td>
                  <td className="wrap">
                    {r.workers.length === 0 ? (
                      <span className="muted">none</span>
                    ) : (
                      <ul className="workers">
                        {r.workers.map((w) => (
                          <li key={w.workerId}>
                            <code>{w.workerId}</code>{' '}
                            <span className="muted">
                              {formatDuration(durationBetween(w.lastPollTime, data?.at))} ago
                            </span>
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td className="nowrap">{formatDateTime(r.lastPollTime)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
