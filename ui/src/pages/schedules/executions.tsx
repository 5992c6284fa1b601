/**
 * The scheduler's execution history (`/schedules/executions`): each time a schedule fired, newest
 * first, 25 a page, through `GET /api/scheduler/search/executions`: when it was due and when it ran,
 * the schedule, the workflow and the run it started (a link), its state (POLLED, EXECUTED, FAILED)
 * and, for a failure, the reason. Filtered by schedule and state; the filters are the page URL
 * (`?schedule=nightly&state=FAILED`).
 */
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { ErrorMessage } from '../../components/error-message.tsx';
import { PageButtons, StatusChecks } from '../../components/search-controls.tsx';
import { useLoad } from '../../components/use-load.ts';
import { useTitle } from '../../components/use-title.ts';
import { durationBetween, formatDateTime, formatDuration } from '../../logic/time.ts';
import { paths } from '../../paths.ts';
import { EXECUTION_STATES, executionQuery, HISTORY_PAGE } from './history-query.ts';

export default function ScheduleExecutions() {
  const [search, setSearch] = useSearchParams();
  const schedule = search.get('schedule') ?? '';
  const states = (search.get('state') ?? '')
    .split(',')
    .filter((s) => (EXECUTION_STATES as readonly string[]).includes(s));
  const start = Math.max(0, Number(search.get('start')) || 0);
  useTitle(schedule ? `${schedule} – Schedule runs` : 'Schedule runs');
  const schedules = useLoad('schedules', () => api('GET /api/scheduler/schedules'));
  const found = useLoad(`schedule-executions|${search.toString()}`, () =>
    api('GET /api/scheduler/search/executions', {
      query: {
        query: executionQuery(schedule, states),
        start,
        size: HISTORY_PAGE,
        sort: 'scheduledTime:DESC',
      },
    }),
  );
  const go = (changes: Record<string, string>) => {
    const next = new URLSearchParams(search);
    for (const [key, value] of Object.entries(changes)) {
      if (value === '' || value === '0') next.delete(key);
      else next.set(key, value);
    }
    setSearch(next);
  };
  const toggleState = (state: string, on: boolean) =>
    go({
      state: EXECUTION_STATES.filter((s) => (s === state ? on : states.includes(s))).join(','),
      start: '',
    });
  const results = found.error ? undefined : found.data;
  const total = results?.totalHits ?? 0;
  const names = [
    ...new Set([...(schedules.data ?? []).map((s) => s.name), ...(schedule ? [schedule] : [])]),
  ].sort();

  return (
    <section>
      <div className="toolbar">
        <h1>Schedule runs</h1>
        <span className="spacer" />
        <Link to="/schedules">Back to schedules</Link>
      </div>
      <search className="filters" aria-label="Filter schedule runs">
        <label>
          Schedule
          <select value={schedule} onChange={(e) => go({ schedule: e.target.value, start: '' })}>
            <option value="">Any</option>
            {names.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <StatusChecks legend="State" statuses={EXECUTION_STATES} checked={states} onToggle={toggleState} />
        <div className="filter-actions">
          <button type="button" onClick={() => void found.reload()} disabled={found.loading}>
            Refresh
          </button>
        </div>
      </search>
      <ErrorMessage error={found.error} />
      {found.loading && !results && !found.error && <p aria-busy="true">Loading…</p>}
      {results && (
        <>
          <p className="muted" aria-live="polite">
            {total === 0
              ? 'No runs recorded for these filters.'
              : `Showing ${start + 1}–${Math.min(start + HISTORY_PAGE, total)} of ${total}, newest first`}
          </p>
          {total > 0 && (
            <div className="table-scroll">
              <table aria-label="Schedule runs">
                <thead>
                  <tr>
                    <th>Scheduled for</th>
                    <th>Ran at</th>
                    <th>Delay</th>
                    <th>Schedule</th>
                    <th>Workflow</th>
                    <th>Run</th>
                    <th>State</th>
                    <th>Reason</th>
                  </tr>
                </thead>
                <tbody>
                  {results.results.map((e) => (
                    <tr key={e.executionId}>
                      <td className="nowrap">{formatDateTime(e.scheduledTime)}</td>
                      <td className="nowrap">{formatDateTime(e.executionTime)}</td>
                      <td className="nowrap">
                        {formatDuration(durationBetween(e.scheduledTime, e.executionTime))}
                      </td>
                      <td className="wrap">
                        <Link to={`/schedules/edit/${encodeURIComponent(e.scheduleName)}`}>
                          {e.scheduleName}
                        </Link>
                      </td>
                      <td className="wrap">{e.workflowName}</td>
                      <td className="wrap">
                        {e.workflowId ? <Link to={paths.execution(e.workflowId)}>{e.workflowId}</Link> : '—'}
                      </td>
                      <td>
                        <span className={`status status-${e.state}`}>{e.state}</span>
                      </td>
                      <td>{e.reason ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <PageButtons
            start={start}
            pageSize={HISTORY_PAGE}
            total={total}
            onGo={(next) => go({ start: String(next) })}
          />
        </>
      )}
    </section>
  );
}
