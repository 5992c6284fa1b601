/**
 * The schedules list: one row per schedule (name linking to the editor, workflow, cron, zone,
 * state, next run in the schedule's zone) with Pause and Resume and a link to the schedule's runs
 * in the row, and the whole execution history a link away.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client.ts';
import type { WorkflowSchedule } from '../../api/routes.ts';
import { ListState } from '../../components/list-state.tsx';
import { NavButton } from '../../components/nav-button.tsx';
import { useLoad } from '../../components/use-load.ts';
import { useTitle } from '../../components/use-title.ts';
import { formatDateTimeInZone } from '../../logic/time.ts';
import { paths } from '../../paths.ts';

const cronOf = (s: WorkflowSchedule) =>
  (s.cronSchedules?.length ?? 0) > 0
    ? (s.cronSchedules ?? []).map((c) => c.cronExpression).join('; ')
    : (s.cronExpression ?? '');
const zoneOf = (s: WorkflowSchedule) => s.cronSchedules?.[0]?.zoneId ?? s.zoneId ?? 'UTC';

export default function SchedulesList() {
  useTitle('Schedules');
  const schedules = useLoad('schedules', () => api('GET /api/scheduler/schedules'));
  // A failed load shows its error alone, not the rows remembered from an earlier visit.
  const data = schedules.error ? undefined : schedules.data;
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState<string>();

  const toggle = async (schedule: WorkflowSchedule) => {
    setBusy(schedule.name);
    setFailure(undefined);
    try {
      const params = { name: schedule.name };
      if (schedule.paused) await api('PUT /api/scheduler/schedules/{name}/resume', { params });
      else await api('PUT /api/scheduler/schedules/{name}/pause', { params });
      await schedules.reload();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(undefined);
    }
  };

  const rows = [...(data ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <section>
      <div className="toolbar">
        <h1>Schedules</h1>
        <span className="spacer" />
        <Link to={paths.scheduleExecutions()}>Execution history</Link>
        <NavButton to="/schedules/new">New schedule</NavButton>
      </div>
      <ListState
        error={failure ?? schedules.error}
        loading={schedules.loading}
        rows={data}
        empty="No schedules yet."
      />
      {rows.length > 0 && (
        <div className="table-scroll">
          <table aria-label="Schedules">
            <thead>
              <tr>
                <th>Name</th>
                <th>Workflow</th>
                <th>Cron</th>
                <th>Zone</th>
                <th>State</th>
                <th>Next run</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
                <th>
                  <span className="visually-hidden">History</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((s) => (
                <tr key={s.name} data-schedule={s.name}>
                  <td className="wrap">
                    <Link to={`/schedules/edit/${encodeURIComponent(s.name)}`}>{s.name}</Link>
                  </td>
                  <td className="wrap">{String((s.startWorkflowRequest as { name?: string }).name ?? '')}</td>
                  <td>
                    <code>{cronOf(s)}</code>
                  </td>
                  <td className="wrap">{zoneOf(s)}</td>
                  <td>{s.paused ? `Paused${s.pausedReason ? ` (${s.pausedReason})` : ''}` : 'Active'}</td>
                  <td className="nowrap">
                    {s.nextRunTime && !s.paused ? formatDateTimeInZone(s.nextRunTime, zoneOf(s)) : '—'}
                  </td>
                  <td>
                    <button
                      type="button"
                      disabled={busy === s.name}
                      onClick={() => void toggle(s)}
                      aria-label={`${s.paused ? 'Resume' : 'Pause'} ${s.name}`}
                    >
                      {s.paused ? 'Resume' : 'Pause'}
                    </button>
                  </td>
                  <td>
                    <Link to={paths.scheduleExecutions(s.name)} aria-label={`Runs of ${s.name}`}>
                      Runs
                    </Link>
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
