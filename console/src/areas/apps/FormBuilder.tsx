import type { AppFieldType, AppForm, AppFormField } from '@svc/client';
import { useId } from 'react';

const TYPES: { value: AppFieldType; label: string }[] = [
  { value: 'text', label: 'Text (one line)' },
  { value: 'textarea', label: 'Long text' },
  { value: 'number', label: 'Number' },
  { value: 'select', label: 'Choice (select)' },
  { value: 'file', label: 'File upload' },
];

/** A field as the builder edits it: the options of a select as text, one per line. */
export interface DraftField {
  name: string;
  label: string;
  type: AppFieldType;
  required: boolean;
  options: string;
  multiple: boolean;
}

export const toDraft = (form: AppForm): DraftField[] =>
  form.fields.map((f) => ({
    name: f.name,
    label: f.label,
    type: f.type,
    required: f.required,
    options: (f.options ?? []).join('\n'),
    multiple: f.multiple ?? false,
  }));

/** The form the service takes: `options` only on a select, `multiple` only on a file field. */
export const fromDraft = (fields: DraftField[]): AppForm => ({
  fields: fields.map((f): AppFormField => {
    const base = { name: f.name.trim(), label: f.label.trim(), type: f.type, required: f.required };
    if (f.type === 'select') {
      return {
        ...base,
        options: f.options
          .split('\n')
          .map((o) => o.trim())
          .filter(Boolean),
      };
    }
    return f.type === 'file' ? { ...base, multiple: f.multiple } : base;
  }),
});

export const blankField = (n: number): DraftField => ({
  name: `field_${n}`,
  label: `Field ${n}`,
  type: 'text',
  required: false,
  options: '',
  multiple: false,
});

/** The fields of an app's public form: add, remove, reorder, and each one's name, label, type and rules. */
export function FormBuilder({ fields, onChange }: { fields: DraftField[]; onChange: (f: DraftField[]) => void }) {
  const set = (i: number, patch: Partial<DraftField>) =>
    onChange(fields.map((f, n) => (n === i ? { ...f, ...patch } : f)));
  const move = (i: number, by: number) => {
    const next = [...fields];
    const [f] = next.splice(i, 1);
    next.splice(i + by, 0, f);
    onChange(next);
  };
  return (
    <div>
      <ol className="cards" aria-label="Form fields">
        {fields.map((f, i) => (
          <FieldEditor
            key={i}
            index={i}
            field={f}
            last={i === fields.length - 1}
            onChange={(patch) => set(i, patch)}
            onMove={(by) => move(i, by)}
            onRemove={fields.length > 1 ? () => onChange(fields.filter((_, n) => n !== i)) : undefined}
          />
        ))}
      </ol>
      <button
        type="button"
        disabled={fields.length >= 30}
        onClick={() => onChange([...fields, blankField(fields.length + 1)])}
      >
        Add a field
      </button>
    </div>
  );
}

function FieldEditor(props: {
  index: number;
  field: DraftField;
  last: boolean;
  onChange: (patch: Partial<DraftField>) => void;
  onMove: (by: number) => void;
  onRemove?: () => void;
}) {
  const { index, field: f, onChange } = props;
  const id = useId();
  const n = index + 1;
  return (
    <li className="card">
      <fieldset>
        <legend>Field {n}</legend>
        <div className="row">
          <div className="field">
            <label htmlFor={`${id}-label`}>Field {n} label</label>
            <input id={`${id}-label`} required value={f.label} onChange={(e) => onChange({ label: e.target.value })} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-name`}>Field {n} name (the run input's key)</label>
            <input
              id={`${id}-name`}
              className="code"
              required
              value={f.name}
              onChange={(e) => onChange({ name: e.target.value })}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-type`}>Field {n} type</label>
            <select
              id={`${id}-type`}
              value={f.type}
              onChange={(e) => onChange({ type: e.target.value as AppFieldType })}
            >
              {TYPES.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          </div>
        </div>
        {f.type === 'select' ? (
          <div className="field">
            <label htmlFor={`${id}-options`}>Field {n} options (one per line)</label>
            <textarea
              id={`${id}-options`}
              rows={3}
              value={f.options}
              onChange={(e) => onChange({ options: e.target.value })}
            />
          </div>
        ) : null}
        <div className="checks">
          <label className="check">
            <input type="checkbox" checked={f.required} onChange={(e) => onChange({ required: e.target.checked })} />
            Field {n} required
          </label>
          {f.type === 'file' ? (
            <label className="check">
              <input type="checkbox" checked={f.multiple} onChange={(e) => onChange({ multiple: e.target.checked })} />
              Field {n} takes several files
            </label>
          ) : null}
        </div>
        <div className="actions">
          <button type="button" disabled={index === 0} onClick={() => props.onMove(-1)}>
            Move field {n} up
          </button>
          <button type="button" disabled={props.last} onClick={() => props.onMove(1)}>
            Move field {n} down
          </button>
          {props.onRemove ? (
            <button type="button" className="danger" onClick={props.onRemove}>
              Remove field {n}
            </button>
          ) : null}
        </div>
      </fieldset>
    </li>
  );
}
