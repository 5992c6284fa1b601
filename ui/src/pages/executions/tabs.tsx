/**
 * Tabs on the execution page (the run's views, the task panel's details): a row of tab buttons,
 * the chosen one marked, over the panel showing the chosen tab's content (`children`), which
 * screen readers name after its tab.
 */
import { type ReactNode, useId } from 'react';

export function Tabs<T extends string>(props: {
  label: string;
  names: readonly T[];
  current: T;
  onChoose: (name: T) => void;
  children: ReactNode;
}) {
  const id = useId();
  const tabId = (name: T) => `${id}-tab-${props.names.indexOf(name)}`;
  return (
    <>
      <div role="tablist" aria-label={props.label} className="tabs">
        {props.names.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={tabId(name)}
            aria-selected={props.current === name}
            aria-controls={`${id}-panel`}
            className={props.current === name ? 'tab active' : 'tab'}
            onClick={() => props.onChoose(name)}
          >
            {name}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={tabId(props.current)} className="tab-panel">
        {props.children}
      </div>
    </>
  );
}
