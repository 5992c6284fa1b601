/**
 * An input- or output-schema picker: a schema name from the registry, then one of its versions
 * (or the latest). With `flagUnregistered`, a reference the registry cannot resolve is flagged in
 * words; the Task Definition form leaves it unflagged (docs/api.md "Overview" 9). No
 * inline edit or preview buttons: no UI plugin supplies them.
 */
import { useId } from 'react';
import { type Registry, refOf, type SchemaField, type SchemaRef, unregistered } from '../logic/schema-ref.ts';

export interface SchemaPickerProps {
  label: string;
  value: SchemaRef | undefined;
  onChange: (ref: SchemaRef | undefined) => void;
  registry: Registry;
  flagUnregistered: boolean;
}

export function SchemaPicker({ label, value, onChange, registry, flagUnregistered }: SchemaPickerProps) {
  const id = useId();
  const names = [...registry.keys()];
  if (value && !registry.has(value.name)) names.unshift(value.name);
  const versions = value ? [...(registry.get(value.name) ?? [])] : [];
  if (value?.version !== undefined && !versions.includes(value.version)) versions.unshift(value.version);
  const problem = flagUnregistered ? unregistered(registry, value) : undefined;
  return (
    <>
      <label htmlFor={`${id}-name`}>{label}</label>
      <div className="picker">
        <select
          id={`${id}-name`}
          value={value?.name ?? ''}
          onChange={(e) => onChange(e.target.value === '' ? undefined : { name: e.target.value })}
        >
          <option value="">(none)</option>
          {names.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <select
          aria-label={`${label} version`}
          value={value?.version ?? ''}
          disabled={!value}
          onChange={(e) =>
            value &&
            onChange(
              e.target.value === ''
                ? { name: value.name }
                : { name: value.name, version: Number(e.target.value) },
            )
          }
        >
          <option value="">latest</option>
          {versions.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
        {problem && (
          <span className="flag" role="status" aria-label={`${label}: ${problem}`}>
            ⚠ {problem}
          </span>
        )}
      </div>
    </>
  );
}

/** The input- and output-schema pickers of one form, reading and writing `holder`'s two fields. */
export function SchemaPickers(props: {
  /** The labels of the input and output pickers. */
  labels: readonly [string, string];
  holder: Record<string, unknown> | undefined;
  onChange: (field: SchemaField, ref: SchemaRef | undefined) => void;
  registry: Registry;
  flagUnregistered: boolean;
}) {
  const fields = ['inputSchema', 'outputSchema'] as const;
  return (
    <>
      {fields.map((field, i) => (
        <SchemaPicker
          key={field}
          label={props.labels[i] as string}
          value={refOf(props.holder, field)}
          onChange={(ref) => props.onChange(field, ref)}
          registry={props.registry}
          flagUnregistered={props.flagUnregistered}
        />
      ))}
    </>
  );
}
