/**
 * The event monitor (`/event-monitor`): every event handler with its event, whether it is active,
 * its number of actions and the messages it handled (`GET /api/event/execution`); and one handler's
 * executions (`/event-monitor/{name}`, `GET /api/event/execution/{name}?from=`) over the last 5,
 * 15 or 30 minutes or all those kept, newest first: when, status, action, the message id, what
 * happened, the run an action started, and the message's payload.
 */
import { Link, useParams, useSearchParams } from 'react-router';
import { api } from '../api/client.ts';
import type { EventExecutionView } from '../api/routes.ts';
import { ListState } from '../components/list-state.tsx';
import { useLoad } from '../components/use-load.ts';
import { useTitle } from '../components/use-title.ts';
import { formatDateTime } from '../logic/time.ts';
import { paths } from '../paths.ts';
import './runs.css';

/** The windows the executions can be read over, in ms (0: all kept). */
const WINDOWS = [
  { label: 'Last 5 minutes', ms: 5 * 60_000 },
  { label: 'Last 15 minutes', ms: 15 * 60_000 },
  { label: 'Last 30 minutes', ms: 30 * 60_000 },
  { label: 'All kept', ms: 0 },
] as const;

export default function EventMonitorPage() {
  const name = useParams()['*'];
  return name ? <HandlerExecutions name={name} /> : <HandlerActivity />;
}

function HandlerActivity() {
  useTitle('Event monitor');
  const activity = useLoad('event-activity', () => api('GET /api/event/execution'));
  const handlers = activity.error ? undefined : activity.data?.results;
  const rows = [...(handlers ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <section>
      <div className="toolbar">
        <h1>Event monitor</h1>
        <span className="spacer" />
        <button type="button" onClick={() => void activity.reload()} disabled={activity.loading}>
          Refresh
        </button>
      </div>
      <ListState
        error={activity.error}
        loading={activity.loading}
        rows={handlers}
        empty={
          <>
            No event handlers yet: <Link to={paths.newEventHandler}>define one</Link>.
          </>
        }
      />
      {rows.length > 0 && (
        <div className="table-scroll">
          <table aria-label="Event handlers and their messages">
            <thead>
              <tr>
                <th>Handler</th>
                <th>Event</th>
                <th>State</th>
                <th>Actions</th>
                <th>Messages handled</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((h) => (
                <tr key={h.name}>
                  <td className="wrap">
                    <Link to={paths.eventExecutions(h.name)}>{h.name}</Link>
                  </td>
                  <td className="wrap">
                    <code>{h.event}</code>
                  </td>
                  <td>{h.active ? 'Active' : 'Inactive'}</td>
                  <td>{h.numberOfActions}</td>
                  <td>{h.numberOfMessages}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function HandlerExecutions({ name }: { name: string }) {
  useTitle(`${name} – Event executions`);
  const [search, setSearch] = useSearchParams();
  const within = WINDOWS.find((w) => String(w.ms) === search.get('within'))?.ms ?? 0;
  const executions = useLoad(`event-executions/${name}/${within}`, () =>
    api('GET /api/event/execution/{name}', { params: { name }, query: within > 0 ? { from: within } : {} }),
  );
  const rows = executions.error ? undefined : executions.data;
  return (
    <section>
      <div className="toolbar">
        <h1>Executions of {name}</h1>
        <span className="spacer" />
        <Link to={paths.eventHandler(name)}>Edit handler</Link>
        <Link to={paths.eventMonitor}>All handlers</Link>
      </div>
      <div className="toolbar">
        <label htmlFor="event-window">Created</label>
        <select
          id="event-window"
          value={String(within)}
          onChange={(e) => setSearch(e.target.value === '0' ? {} : { within: e.target.value })}
        >
          {WINDOWS.map((w) => (
            <option key={w.ms} value={String(w.ms)}>
              {w.label}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => void executions.reload()} disabled={executions.loading}>
          Refresh
        </button>
        {rows && <span className="muted">{rows.length} shown, newest first</span>}
      </div>
      <ListState
        error={executions.error}
        loading={executions.loading}
        rows={rows}
        empty="No executions in this window."
      />
      {rows && rows.length > 0 && (
        <div className="table-scroll">
          <table aria-label="Event executions">
            <thead>
              <tr>
                <th>Created</th>
                <th>Status</th>
                <th>Action</th>
                <th>Message id</th>
                <th>Outcome</th>
                <th>Payload</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.id}>
                  <td className="nowrap">{formatDateTime(e.created)}</td>
                  <td>
                    <span className={`status status-${e.status}`}>{e.status}</span>
                  </td>
                  <td>{e.action ?? ''}</td>
                  <td className="wrap">
                    <code>{e.messageId}</code>
                  </td>
                  <td>
                    <Outcome execution={e} />
                  </td>
                  <td>
                    <details>
                      <summary>Show</summary>
                      <pre className="json">{JSON.stringify(e.payload, null, 2)}</pre>
                    </details>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** What an execution did: the run it started or acted on, and the service's description. */
function Outcome({ execution }: { execution: EventExecutionView }) {
  const workflowId = execution.output?.workflowId;
  return (
    <>
      {typeof workflowId === 'string' && workflowId !== '' && (
        <Link to={paths.execution(workflowId)}>{workflowId}</Link>
      )}
      {execution.statusDescription && <div className="muted">{execution.statusDescription}</div>}
    </>
  );
}
