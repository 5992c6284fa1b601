/**
 * The event handlers list (`GET /api/event`): one row per handler (name linking to the editor,
 * event, condition, actions, active), filterable by name or event, with an Active switch that
 * saves the handler with `active` turned over (`PUT /api/event`) and a link to its executions in
 * the event monitor.
 */
import { useDeferredValue, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client.ts';
import type { EventHandler } from '../../api/routes.ts';
import { ErrorMessage } from '../../components/error-message.tsx';
import { NavButton } from '../../components/nav-button.tsx';
import { useLoad } from '../../components/use-load.ts';
import { useTitle } from '../../components/use-title.ts';
import { paths } from '../../paths.ts';

export default function EventHandlersList() {
  useTitle('Event handlers');
  const handlers = useLoad('event-handlers', () => api('GET /api/event'));
  const [filter, setFilter] = useState('');
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState<string>();
  const wanted = useDeferredValue(filter.trim().toLowerCase());

  const toggle = async (handler: EventHandler) => {
    setBusy(handler.name);
    setFailure(undefined);
    try {
      await api('PUT /api/event', { body: { ...handler, active: handler.active !== true } });
      await handlers.reload();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(undefined);
    }
  };

  const all = handlers.error ? [] : (handlers.data ?? []);
  const rows = all
    .filter((h) => wanted === '' || `${h.name} ${h.event}`.toLowerCase().includes(wanted))
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <section>
      <h1>Event handlers</h1>
      <div className="toolbar">
        <NavButton to={paths.newEventHandler}>New event handler</NavButton>
        <label htmlFor="handler-filter">Filter by name or event</label>
        <input id="handler-filter" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
        <span className="spacer" />
        {handlers.loading && <span aria-busy="true">Loading…</span>}
        <Link to={paths.eventMonitor}>Event monitor</Link>
      </div>
      <ErrorMessage error={failure ?? handlers.error} />
      {handlers.data && !handlers.error && all.length === 0 && (
        <p className="muted">No event handlers yet.</p>
      )}
      {all.length > 0 && rows.length === 0 && (
        <p className="muted">No event handler matches “{filter.trim()}”.</p>
      )}
      {rows.length > 0 && (
        <div className="table-scroll">
          <table aria-label="Event handlers">
            <thead>
              <tr>
                <th>Name</th>
                <th>Event</th>
                <th>Condition</th>
                <th>Actions</th>
                <th>Active</th>
                <th>
                  <span className="visually-hidden">Executions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((h) => (
                <tr key={h.name} data-handler={h.name}>
                  <td className="wrap">
                    <Link to={paths.eventHandler(h.name)}>{h.name}</Link>
                  </td>
                  <td className="wrap">
                    <code>{h.event}</code>
                  </td>
                  <td className="wrap">
                    {h.condition ? <code>{h.condition}</code> : <span className="muted">always</span>}
                  </td>
                  <td>
                    {(h.actions ?? []).map((a) => a.action).join(', ') || <span className="muted">none</span>}
                  </td>
                  <td>
                    <label className="switch">
                      <input
                        type="checkbox"
                        checked={h.active === true}
                        disabled={busy === h.name}
                        onChange={() => void toggle(h)}
                        aria-label={`Active: ${h.name}`}
                      />
                      {h.active === true ? 'Active' : 'Inactive'}
                    </label>
                  </td>
                  <td>
                    <Link to={paths.eventExecutions(h.name)}>Executions</Link>
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
