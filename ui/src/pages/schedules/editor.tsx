/**
 * The schedule editor (`/schedules/new`, `/schedules/edit/{name}`): the schedule's fields, a
 * preview of its next five run times from `GET /api/scheduler/nextFewSchedules` (refreshed as the
 * cron expression changes; a bad expression shows the service's message), Save and Delete.
 */
import { type FormEvent, useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import type { WorkflowSchedule } from '../../api/routes.ts';
import { useConfirm } from '../../components/confirm.tsx';
import { EditorFooter, useEditorForm } from '../../components/editor-form.tsx';
import { ErrorMessage } from '../../components/error-message.tsx';
import { useLoad } from '../../components/use-load.ts';
import { useTitle } from '../../components/use-title.ts';
import { useWorkflowDefs, WorkflowNameOptions } from '../../components/workflow-names.tsx';
import { formatDateTimeInZone } from '../../logic/time.ts';
import { paths } from '../../paths.ts';
import { formOf, hasManyCrons, NEW_SCHEDULE, type ScheduleForm, scheduleOf } from './schedule-form.ts';

export default function ScheduleEditor() {
  const name = useParams().name;
  const navigate = useNavigate();
  useTitle(name === undefined ? 'New schedule' : `${name} – Schedule`);
  const existing = useLoad(
    name ?? '(new)',
    async (): Promise<WorkflowSchedule | undefined> =>
      name === undefined ? undefined : api('GET /api/scheduler/schedules/{name}', { params: { name } }),
  );
  const { form, setForm, set, text, submit, problems, failure, setFailure, saved } =
    useEditorForm<ScheduleForm>(NEW_SCHEDULE);
  const [confirmDialog, confirm] = useConfirm();
  useEffect(() => {
    if (existing.data) setForm(formOf(existing.data));
  }, [existing.data, setForm]);
  const cron = form.cronExpression.trim();
  const preview = useLoad(`${cron}|${form.zoneId}`, () =>
    cron === ''
      ? Promise.resolve([] as number[])
      : api('GET /api/scheduler/nextFewSchedules', { query: { cronExpression: cron, limit: 5 } }),
  );
  // An expression the service refuses shows its message alone, not the last good one's run times.
  const nextRuns = preview.error ? undefined : preview.data;
  const defs = useWorkflowDefs();

  const save = (event: FormEvent) =>
    submit(event, scheduleOf(form, existing.data), async ({ schedule }) => {
      await api('POST /api/scheduler/schedules', { body: schedule });
      if (name === undefined)
        void navigate(`/schedules/edit/${encodeURIComponent(schedule.name)}`, { replace: true });
      else await existing.reload();
    });
  const remove = async () => {
    if (!(await confirm(`Delete the schedule ${form.name}? It stops firing.`, 'Delete'))) return;
    try {
      await api('DELETE /api/scheduler/schedules/{name}', { params: { name: form.name } });
      void navigate('/schedules');
    } catch (error) {
      setFailure(error);
    }
  };

  if (existing.error) {
    return (
      <section>
        <h1>Schedule</h1>
        <ErrorMessage error={existing.error} />
        <Link to="/schedules">Back to schedules</Link>
      </section>
    );
  }
  const many = hasManyCrons(existing.data);
  return (
    <section>
      <div className="toolbar">
        <h1>{name === undefined ? 'New schedule' : `Schedule ${name}`}</h1>
        <span className="spacer" />
        {name !== undefined && <Link to={paths.scheduleExecutions(name)}>Runs</Link>}
        <Link to="/schedules">Back to schedules</Link>
      </div>
      <div className="split">
        <form className="stacked-form" onSubmit={save} aria-label="Schedule">
          <label>
            Name
            <input required readOnly={name !== undefined} {...text('name')} />
          </label>
          <label>
            Cron expression (seconds first, Spring syntax)
            <input required readOnly={many} {...text('cronExpression')} />
          </label>
          {many && (
            <p className="notice">
              This schedule has {existing.data?.cronSchedules?.length} cron expressions; the form shows the
              first and keeps them all.
            </p>
          )}
          <label>
            Time zone
            <input readOnly={many} {...text('zoneId')} />
          </label>
          <label>
            Workflow name
            <input required list="schedule-workflow-names" {...text('workflowName')} />
          </label>
          <WorkflowNameOptions id="schedule-workflow-names" defs={defs.data} />
          <label>
            Workflow version (empty: the latest)
            <input inputMode="numeric" {...text('workflowVersion')} />
          </label>
          <label>
            Input (JSON object)
            <textarea
              rows={6}
              spellCheck={false}
              value={form.input}
              onChange={(e) => set('input', e.target.value)}
            />
          </label>
          <label>
            Correlation id
            <input {...text('correlationId')} />
          </label>
          <label>
            Description
            <input {...text('description')} />
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={form.runCatchupScheduleInstances}
              onChange={(e) => set('runCatchupScheduleInstances', e.target.checked)}
            />
            Run missed fire times (catch-up)
          </label>
          <label className="checkbox">
            <input type="checkbox" checked={form.paused} onChange={(e) => set('paused', e.target.checked)} />
            Paused
          </label>
          <EditorFooter
            problems={problems}
            failure={failure}
            saved={saved}
            onDelete={name === undefined ? undefined : () => void remove()}
            confirmDialog={confirmDialog}
          />
        </form>
        <aside aria-label="Next runs">
          <h2>Next runs</h2>
          <ErrorMessage error={preview.error} />
          {nextRuns && nextRuns.length === 0 && <p className="muted">No run times.</p>}
          {nextRuns && nextRuns.length > 0 && (
            <ol className="next-runs">
              {nextRuns.map((ms) => (
                <li key={ms}>
                  <time dateTime={new Date(ms).toISOString()}>
                    {formatDateTimeInZone(ms, form.zoneId || 'UTC')}
                  </time>
                </li>
              ))}
            </ol>
          )}
        </aside>
      </div>
    </section>
  );
}
