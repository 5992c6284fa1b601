/**
 * The queue monitor (`/queue-monitor`): every worker queue with the tasks waiting in it, its
 * domain, the workers that polled it and when they last did (`GET /api/tasks/queue/all` and
 * `GET /api/tasks/queue/polldata/all`), filterable by task type; Refresh reads both again. A queue
 * with tasks waiting and no worker polling is flagged, the usual reason a run does not move.
 */
import { api } from '../api/client.ts';
import { FilterBox, useFilter } from '../components/filter-box.tsx';
import { ListState } from '../components/list-state.tsx';
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
  const filter = useFilter();
  const data = queues.error ? undefined : queues.data;
  const rows = (data?.rows ?? []).filter((r) => filter.matches(r.queue));
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
        <FilterBox id="queue-filter" label="Filter by task type" filter={filter} />
        {data && (
          <span className="muted">
            {rows.length} of {data.rows.length} queues
          </span>
        )}
      </div>
      <ListState
        error={queues.error}
        loading={queues.loading}
        rows={data?.rows}
        empty="No worker queues yet: none holds a task and no worker has polled."
      />
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
