import type { AppForm } from '@svc/client';
import { useId } from 'react';

/**
 * What a visitor sees on the app's public page, drawn from the form as edited (before it is saved): the
 * controls are inert, since the real page posts to the service without any script.
 */
export function FormPreview({ name, description, form }: { name: string; description: string | null; form: AppForm }) {
  const id = useId();
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Preview: {name}</h3>
      {description ? <p>{description}</p> : null}
      <fieldset disabled>
        <legend className="sr-only">Preview of the public form</legend>
        {form.fields.map((f, i) => {
          const fid = `${id}-${i}`;
          const label = (
            <label htmlFor={fid}>
              {f.label || f.name}
              {f.required ? ' (required)' : ''}
            </label>
          );
          return (
            <div className="field" key={i}>
              {label}
              {f.type === 'textarea' ? (
                <textarea id={fid} rows={3} />
              ) : f.type === 'select' ? (
                <select id={fid}>
                  <option value="">Choose…</option>
                  {(f.options ?? []).map((o) => (
                    <option key={o}>{o}</option>
                  ))}
                </select>
              ) : (
                <input
                  id={fid}
                  type={f.type === 'number' ? 'number' : f.type === 'file' ? 'file' : 'text'}
                  multiple={f.multiple}
                />
              )}
            </div>
          );
        })}
        <button type="button">Submit</button>
      </fieldset>
    </section>
  );
}
