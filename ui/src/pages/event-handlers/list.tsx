/**
 * The event handlers list (`GET /api/event`): one row per handler (name linking to the editor,
 * event, condition, actions, active), filterable by name or event, with an Active switch that
 * saves the handler with `active` turned over (`PUT /api/event`) and a link to its executions in
 * the event monitor.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client.ts';
import type { EventHandler } from '../../api/routes.ts';
import { FilterBox, useFilter } from '../../components/filter-box.tsx';
import { ListState } from '../../components/list-state.tsx';
import { NavButton } from '../../components/nav-button.tsx';
import { useLoad } from '../../components/use-load.ts';
import { useTitle } from '../../components/use-title.ts';
import { paths } from '../../paths.ts';

export default function EventHandlersList() {
  useTitle('Event handlers');
  const handlers = useLoad('event-handlers', () => api('GET /api/event'));
  const filter = useFilter();
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState<string>();

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

  const data = handlers.error ? undefined : handlers.data;
  const rows = (data ?? [])
    .filter((h) => filter.matches(h.name, h.event))
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <section>
      <h1>Event handlers</h1>
      <div className="toolbar">
        <NavButton to={paths.newEventHandler}>New event handler</NavButton>
        <FilterBox id="handler-filter" label="Filter by name or event" filter={filter} />
        <span className="spacer" />
        {handlers.loading && <span aria-busy="true">Loading…</span>}
        <Link to={paths.eventMonitor}>Event monitor</Link>
      </div>
      <ListState
        error={failure ?? handlers.error}
        rows={data}
        empty="No event handlers yet."
        shown={rows.length}
        noMatch={`No event handler matches “${filter.text.trim()}”.`}
      />
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
