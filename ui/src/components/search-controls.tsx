/**
 * Pieces of the pages that search the service a page at a time (executions, schedule runs): the
 * status checkboxes of the search form (`StatusChecks`: none checked is any status), and Previous
 * page / Next page under the results (`PageButtons`, from the first row shown and the total).
 */

export function StatusChecks(props: {
  legend: string;
  statuses: readonly string[];
  checked: readonly string[];
  onToggle: (status: string, on: boolean) => void;
}) {
  return (
    <fieldset className="statuses">
      <legend>{props.legend}</legend>
      {props.statuses.map((s) => (
        <label key={s} className="checkbox">
          <input
            type="checkbox"
            checked={props.checked.includes(s)}
            onChange={(e) => props.onToggle(s, e.target.checked)}
          />
          {s}
        </label>
      ))}
    </fieldset>
  );
}

export function PageButtons(props: {
  start: number;
  pageSize: number;
  total: number;
  onGo: (start: number) => void;
}) {
  const { start, pageSize, total } = props;
  return (
    <div className="toolbar">
      <button type="button" disabled={start === 0} onClick={() => props.onGo(Math.max(0, start - pageSize))}>
        Previous page
      </button>
      <button type="button" disabled={start + pageSize >= total} onClick={() => props.onGo(start + pageSize)}>
        Next page
      </button>
    </div>
  );
}
