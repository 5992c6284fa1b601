/**
 * The executions list: filters by workflow type (typed in part: the registered types containing it
 * are named under the field and searched), any number of statuses, start-time range, correlation id
 * and free text; 25 a page through `GET /api/workflow/search`, sorted by a click on a column header
 * (the search API's `sort`; newest first until then), with each run's duration. The filters and the
 * order are the page URL, so the browser's back button and a reload keep them. A search the service
 * refuses shows its message instead of the previous results.
 */
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { ErrorMessage } from '../../components/error-message.tsx';
import { NavButton } from '../../components/nav-button.tsx';
import { PageButtons, StatusChecks } from '../../components/search-controls.tsx';
import { useLoad } from '../../components/use-load.ts';
import { useTitle } from '../../components/use-title.ts';
import { useWorkflowDefs, WorkflowNameOptions } from '../../components/workflow-names.tsx';
import { durationBetween, formatDateTime, formatDuration } from '../../logic/time.ts';
import {
  type ExecutionFilters,
  filtersFromUrl,
  matchingTypes,
  NO_FILTERS,
  nextSort,
  PAGE_SIZE,
  type SortField,
  searchParamsOf,
  urlOfFilters,
  WORKFLOW_STATUSES,
} from './search-query.ts';

type TextFilter = 'workflowType' | 'from' | 'to' | 'correlationId' | 'freeText';

export default function ExecutionsList() {
  useTitle('Executions');
  const [search, setSearch] = useSearchParams();
  const applied = filtersFromUrl(search);
  const [draft, setDraft] = useState<ExecutionFilters>(applied);
  const names = useWorkflowDefs();
  const registered = (names.data ?? []).map((d) => d.name);
  // A type typed in part stands for the registered types containing it, so a search by type waits
  // for them (a load that failed searches the exact name); until then the search stays pending.
  const typesKnown =
    names.data !== undefined || names.error !== undefined || applied.workflowType.trim() === '';
  const found = useLoad(`${search.toString()}|${typesKnown}`, () =>
    typesKnown
      ? api('GET /api/workflow/search', { query: searchParamsOf(applied, registered) })
      : new Promise<never>(() => {}),
  );

  const apply = (filters: ExecutionFilters) => {
    setDraft(filters);
    setSearch(urlOfFilters(filters));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply({ ...draft, start: 0 });
  };
  const field = (key: TextFilter) => ({
    value: draft[key],
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [key]: event.target.value }),
  });
  const toggleStatus = (status: string, on: boolean) =>
    setDraft({
      ...draft,
      statuses: WORKFLOW_STATUSES.filter((s) => (s === status ? on : draft.statuses.includes(s))),
    });
  const sortBy = (field: SortField) => apply({ ...applied, sort: nextSort(applied.sort, field), start: 0 });
  const total = found.data?.totalHits ?? 0;
  const shownTo = Math.min(applied.start + PAGE_SIZE, total);
  const header = (field: SortField, label: string) => {
    const sorted = applied.sort.field === field;
    return (
      <th aria-sort={sorted ? (applied.sort.descending ? 'descending' : 'ascending') : undefined}>
        <button type="button" className="sort" onClick={() => sortBy(field)}>
          {label}
          <span aria-hidden="true">{sorted ? (applied.sort.descending ? ' ▼' : ' ▲') : ''}</span>
        </button>
      </th>
    );
  };
  // The error replaces the results: rows of an earlier search never sit under it.
  const results = found.error ? undefined : found.data;

  return (
    <section>
      <div className="toolbar">
        <h1>Executions</h1>
        <span className="spacer" />
        <NavButton to="/executions/run">Run Workflow</NavButton>
      </div>
      <form className="filters" onSubmit={submit} aria-label="Search executions">
        <div className="type-filter">
          <label>
            Workflow type
            <input list="workflow-names" aria-describedby="workflow-type-hint" {...field('workflowType')} />
          </label>
          <TypeHint typed={draft.workflowType} registered={names.data ? registered : undefined} />
        </div>
        <WorkflowNameOptions id="workflow-names" defs={names.data} />
        <StatusChecks
          legend="Status"
          statuses={WORKFLOW_STATUSES}
          checked={draft.statuses}
          onToggle={toggleStatus}
        />
        <label>
          Started from
          <input type="datetime-local" {...field('from')} />
        </label>
        <label>
          Started until
          <input type="datetime-local" {...field('to')} />
        </label>
        <label>
          Correlation id
          <input {...field('correlationId')} />
        </label>
        <label>
          Free text
          <input placeholder="*" {...field('freeText')} />
        </label>
        <div className="filter-actions">
          <button type="submit" className="primary">
            Search
          </button>
          <button type="button" onClick={() => apply(NO_FILTERS)}>
            Clear
          </button>
        </div>
      </form>
      <ErrorMessage error={found.error} />
      {found.loading && !results && !found.error ? <p aria-busy="true">Loading…</p> : null}
      {results && (
        <>
          <p className="muted" aria-live="polite">
            {total === 0 ? 'No executions match.' : `Showing ${applied.start + 1}–${shownTo} of ${total}`}
          </p>
          <div className="table-scroll">
            <table aria-label="Executions">
              <thead>
                <tr>
                  <th>Workflow id</th>
                  {header('workflowType', 'Workflow')}
                  <th>Version</th>
                  {header('status', 'Status')}
                  {header('startTime', 'Started')}
                  {header('endTime', 'Ended')}
                  {header('executionTime', 'Duration')}
                  <th>Correlation id</th>
                </tr>
              </thead>
              <tbody>
                {results.results.map((run) => (
                  <tr key={run.workflowId}>
                    <td className="wrap">
                      <Link to={`/executions/${encodeURIComponent(run.workflowId)}`}>{run.workflowId}</Link>
                    </td>
                    <td className="wrap">{run.workflowType}</td>
                    <td>{run.version}</td>
                    <td>
                      <span className={`status status-${run.status}`}>{run.status}</span>
                    </td>
                    <td className="nowrap">{formatDateTime(run.startTime)}</td>
                    <td className="nowrap">{formatDateTime(run.endTime)}</td>
                    <td className="nowrap">{formatDuration(durationBetween(run.startTime, run.endTime))}</td>
                    <td className="wrap">{run.correlationId ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <PageButtons
            start={applied.start}
            pageSize={PAGE_SIZE}
            total={total}
            onGo={(start) => apply({ ...applied, start })}
          />
        </>
      )}
    </section>
  );
}

/** What a typed workflow type will search for: the registered types containing it, or the exact name. */
function TypeHint({ typed, registered }: { typed: string; registered: string[] | undefined }) {
  const type = typed.trim();
  if (type === '' || registered === undefined || registered.includes(type)) return null;
  const types = matchingTypes(type, registered);
  const known = registered.some((name) => name === types[0]);
  return (
    <small id="workflow-type-hint" className="hint" data-testid="workflow-type-hint">
      {known
        ? `Matches ${types.length} workflow ${types.length === 1 ? 'type' : 'types'}: ${types.join(', ')}`
        : `No registered workflow type contains “${type}”; searching for that exact name.`}
    </small>
  );
}
