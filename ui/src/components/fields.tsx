/** Labelled form fields for the definition forms (a label bound to each control, for keyboards and readers). */
import { useId } from 'react';

export function TextField(props: {
  label: string;
  value: string | undefined;
  onChange: (value: string) => void;
  required?: boolean;
  readOnly?: boolean;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        value={props.value ?? ''}
        required={props.required}
        readOnly={props.readOnly}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </>
  );
}

/** A whole number; an empty box gives undefined. */
export function NumberField(props: {
  label: string;
  value: number | undefined;
  onChange: (value: number | undefined) => void;
  min?: number;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="number"
        min={props.min}
        step={1}
        value={props.value ?? ''}
        onChange={(e) =>
          props.onChange(e.target.value === '' ? undefined : Math.trunc(Number(e.target.value)))
        }
      />
    </>
  );
}

export function CheckboxField(props: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="checkbox"
        checked={props.checked}
        onChange={(e) => props.onChange(e.target.checked)}
      />
    </>
  );
}

export function SelectField(props: {
  label: string;
  value: string | undefined;
  options: readonly string[];
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{props.label}</label>
      <select id={id} value={props.value ?? ''} onChange={(e) => props.onChange(e.target.value)}>
        {props.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </>
  );
}
