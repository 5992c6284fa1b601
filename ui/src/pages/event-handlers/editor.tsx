/**
 * The event handler editor (`/definitions/event-handlers/new`, `.../edit/{name}`): name, event,
 * condition, active, description and the actions as JSON, checked in the form before anything is
 * sent. Save creates (`POST /api/event`) or updates (`PUT /api/event`); Delete asks first.
 */
import { type FormEvent, useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import type { EventHandler } from '../../api/routes.ts';
import { useConfirm } from '../../components/confirm.tsx';
import { EditorFooter, useEditorForm } from '../../components/editor-form.tsx';
import { ErrorMessage } from '../../components/error-message.tsx';
import { useLoad } from '../../components/use-load.ts';
import { useTitle } from '../../components/use-title.ts';
import { paths } from '../../paths.ts';
import { EVENT_ACTIONS, formOf, type HandlerForm, handlerOf, NEW_HANDLER } from './handler-form.ts';

export default function EventHandlerEditor() {
  const name = useParams().name;
  const navigate = useNavigate();
  useTitle(name === undefined ? 'New event handler' : `${name} – Event handler`);
  const existing = useLoad(
    `event-handler/${name ?? '(new)'}`,
    async (): Promise<EventHandler | undefined> =>
      name === undefined ? undefined : api('GET /api/event/handler/{name}', { params: { name } }),
  );
  const { form, setForm, set, text, submit, problems, failure, setFailure, saved } =
    useEditorForm<HandlerForm>(NEW_HANDLER);
  const [confirmDialog, confirm] = useConfirm();
  useEffect(() => {
    setForm(existing.data ? formOf(existing.data) : NEW_HANDLER);
  }, [existing.data, setForm]);

  const save = (event: FormEvent) =>
    submit(event, handlerOf(form, existing.data), async ({ handler }) => {
      if (name === undefined) {
        await api('POST /api/event', { body: handler });
        void navigate(paths.eventHandler(handler.name), { replace: true });
      } else {
        await api('PUT /api/event', { body: handler });
        await existing.reload();
      }
    });
  const remove = async () => {
    if (!(await confirm(`Delete the event handler ${form.name}? Its event no longer triggers it.`, 'Delete')))
      return;
    try {
      await api('DELETE /api/event/{name}', { params: { name: form.name } });
      void navigate(paths.eventHandlers);
    } catch (error) {
      setFailure(error);
    }
  };

  if (existing.error) {
    return (
      <section>
        <h1>Event handler {name}</h1>
        <ErrorMessage error={existing.error} />
        <Link to={paths.eventHandlers}>Back to event handlers</Link>
      </section>
    );
  }
  if (name !== undefined && !existing.data) return <p aria-busy="true">Loading…</p>;
  return (
    <section>
      <div className="toolbar">
        <h1>{name === undefined ? 'New event handler' : `Event handler ${name}`}</h1>
        <span className="spacer" />
        {name !== undefined && <Link to={paths.eventExecutions(name)}>Executions</Link>}
        <Link to={paths.eventHandlers}>Back to event handlers</Link>
      </div>
      <form className="stacked-form" onSubmit={save} aria-label="Event handler">
        <label>
          Name
          <input required readOnly={name !== undefined} {...text('name')} />
        </label>
        <label>
          Event (type:queue, e.g. conductor:orders, sqs:orders)
          <input required {...text('event')} />
        </label>
        <label>
          Condition (empty: every message; e.g. $.order.total &gt; 100)
          <input {...text('condition')} />
        </label>
        <label>
          Condition evaluator
          <select value={form.evaluatorType} onChange={(e) => set('evaluatorType', e.target.value)}>
            <option value="javascript">javascript</option>
            <option value="value-param">value-param</option>
          </select>
        </label>
        <label>
          Description
          <input {...text('description')} />
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={form.active} onChange={(e) => set('active', e.target.checked)} />
          Active
        </label>
        <label>
          Actions (JSON array; each action one of {EVENT_ACTIONS.join(', ')})
          <textarea
            rows={12}
            spellCheck={false}
            value={form.actions}
            onChange={(e) => set('actions', e.target.value)}
          />
        </label>
        <EditorFooter
          problems={problems}
          failure={failure}
          saved={saved}
          onDelete={name === undefined ? undefined : () => void remove()}
          confirmDialog={confirmDialog}
        />
      </form>
    </section>
  );
}
