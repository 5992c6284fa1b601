/**
 * A small JSON object in a labelled text area (task input parameters): the form takes the value
 * once the text is a valid object, and says where it is wrong until then.
 */
import { useEffect, useId, useState } from 'react';
import { parseJsonObject, prettyJson } from '../logic/json-text.ts';

export function JsonObjectField(props: {
  label: string;
  value: Record<string, unknown> | undefined;
  onChange: (value: Record<string, unknown>) => void;
}) {
  const id = useId();
  const printed = prettyJson(props.value ?? {});
  const [text, setText] = useState(printed);
  // A change from elsewhere (the whole-definition JSON) replaces the text unless it says the same.
  useEffect(() => {
    setText((current) => {
      const parsed = parseJsonObject(current);
      return parsed.ok && prettyJson(parsed.value) === printed ? current : printed;
    });
  }, [printed]);
  const parsed = parseJsonObject(text);
  return (
    <>
      <label htmlFor={id}>{props.label}</label>
      <div>
        <textarea
          id={id}
          rows={Math.min(12, Math.max(3, text.split('\n').length))}
          value={text}
          aria-invalid={!parsed.ok}
          onChange={(e) => {
            setText(e.target.value);
            const next = parseJsonObject(e.target.value);
            if (next.ok) props.onChange(next.value as Record<string, unknown>);
          }}
        />
        {!parsed.ok && (
          <span className="flag" role="alert">
            {parsed.message}
          </span>
        )}
      </div>
    </>
  );
}
