import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { api } from '../../api';
import { useAgents } from '../../hooks';
import { useSession } from '../../session';
import { STEP_TYPES, type Issue } from './flowApi';
import type { StepDraft } from './stepDraft';

interface OutputConnection {
  id: string;
  name: string;
  type: string;
}

type Control = { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string };

/** A labelled control with the problems found at its field, tied to it for screen readers. */
function Field({
  label,
  issues,
  hint,
  children,
}: {
  label: string;
  issues: Issue[];
  hint?: string;
  children: (control: Control) => React.ReactNode;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', issues.length ? `${id}-err` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        ...(issues.length ? { 'aria-invalid': true as const } : {}),
        ...(described ? { 'aria-describedby': described } : {}),
      })}
      {hint ? (
        <span id={`${id}-hint`} className="small muted">
          {hint}
        </span>
      ) : null}
      {issues.length ? (
        <span id={`${id}-err`} className="invalid small" role="alert">
          {issues.map((i) => i.message).join('; ')}
        </span>
      ) : null}
    </div>
  );
}

/** A picker of the references a field may use; choosing one puts it into the field. */
function ReferencePicker({
  label,
  references,
  onPick,
}: {
  label: string;
  references: string[];
  onPick: (ref: string) => void;
}) {
  return (
    <select
      aria-label={label}
      className="ref-picker"
      value=""
      onChange={(e) => {
        if (e.target.value) onPick(e.target.value);
      }}
    >
      <option value="">Insert a reference…</option>
      {references.map((r) => (
        <option key={r} value={r}>
          {r}
        </option>
      ))}
    </select>
  );
}

/** The fields of one step, by its type (docs/api/flows.md#steps). */
export function StepFields({
  draft: d,
  index,
  onChange,
  references,
  laterSteps,
  issues,
}: {
  draft: StepDraft;
  index: number;
  onChange: (d: StepDraft) => void;
  references: string[];
  laterSteps: string[];
  issues: Issue[];
}) {
  const { can } = useSession();
  const agents = useAgents();
  const connections = useQuery({
    queryKey: ['output-connections'],
    queryFn: () => api<{ outputConnections: OutputConnection[] }>('/v1/output-connections?limit=100'),
    enabled: d.type === 'save_output' && can('webhooks:manage'),
  });
  const at = (field: string) => issues.filter((i) => i.path === field || i.path.startsWith(`${field}.`));
  const known = new Set([
    'name',
    'type',
    'agentId',
    'input',
    'method',
    'url',
    'headers',
    'body',
    'message',
    'if',
    'else',
    'seconds',
    'connectionId',
    'from',
  ]);
  const elsewhere = issues.filter((i) => !known.has(i.path.split('.')[0]));
  const set = (patch: Partial<StepDraft>) => onChange({ ...d, ...patch });
  const braced = references.map((r) => `{{${r}}}`);
  const step = `step ${index + 1}`;
  return (
    <div className="step-fields">
      {elsewhere.map((i) => (
        <p key={`${i.path}-${i.message}`} className="invalid small" role="alert">
          {i.path ? `${i.path}: ` : ''}
          {i.message}
        </p>
      ))}
      <div className="row">
        <Field label="Step name" issues={at('name')} hint="Letters, digits, _ and -; unique in the flow">
          {(c) => (
            <input {...c} required maxLength={64} value={d.name} onChange={(e) => set({ name: e.target.value })} />
          )}
        </Field>
        <Field label="Type" issues={at('type')}>
          {(c) => (
            <select {...c} value={d.type} onChange={(e) => set({ type: e.target.value as StepDraft['type'] })}>
              {STEP_TYPES.map((t) => (
                <option key={t.type} value={t.type}>
                  {t.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <p className="small muted">{STEP_TYPES.find((t) => t.type === d.type)?.help}</p>

      {d.type === 'agent' ? (
        <>
          <Field label="Agent" issues={at('agentId')}>
            {(c) => (
              <select {...c} required value={d.agentId} onChange={(e) => set({ agentId: e.target.value })}>
                <option value="">Choose an agent…</option>
                {(agents.data?.agents ?? []).map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Input (JSON object)" issues={at('input')} hint={`References: ${braced.join(', ')}`}>
            {(c) => (
              <textarea
                {...c}
                className="code"
                rows={4}
                spellCheck={false}
                value={d.input}
                onChange={(e) => set({ input: e.target.value })}
              />
            )}
          </Field>
        </>
      ) : null}

      {d.type === 'http' ? (
        <>
          <div className="row">
            <Field label="Method" issues={at('method')}>
              {(c) => (
                <select {...c} value={d.method} onChange={(e) => set({ method: e.target.value })}>
                  {['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => (
                    <option key={m}>{m}</option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="URL" issues={at('url')}>
              {(c) => <input {...c} required value={d.url} onChange={(e) => set({ url: e.target.value })} />}
            </Field>
          </div>
          <ReferencePicker
            label={`Insert a reference into the URL of ${step}`}
            references={braced}
            onPick={(r) => set({ url: d.url + r })}
          />
          <Field label="Headers (JSON object, optional)" issues={at('headers')}>
            {(c) => (
              <textarea
                {...c}
                className="code"
                rows={2}
                spellCheck={false}
                value={d.headers}
                onChange={(e) => set({ headers: e.target.value })}
              />
            )}
          </Field>
          <Field label="Body (JSON, optional)" issues={at('body')} hint={`References: ${braced.join(', ')}`}>
            {(c) => (
              <textarea
                {...c}
                className="code"
                rows={3}
                spellCheck={false}
                value={d.body}
                onChange={(e) => set({ body: e.target.value })}
              />
            )}
          </Field>
        </>
      ) : null}

      {d.type === 'approval' ? (
        <>
          <Field label="Message to the approver" issues={at('message')}>
            {(c) => (
              <textarea {...c} required rows={2} value={d.message} onChange={(e) => set({ message: e.target.value })} />
            )}
          </Field>
          <ReferencePicker
            label={`Insert a reference into the message of ${step}`}
            references={braced}
            onPick={(r) => set({ message: d.message + r })}
          />
        </>
      ) : null}

      {d.type === 'condition' ? (
        <>
          <div className="row">
            <Field label="Reference to test" issues={at('if')} hint="Without braces, e.g. trigger.priority">
              {(c) => <input {...c} required value={d.path} onChange={(e) => set({ path: e.target.value })} />}
            </Field>
            <Field label="Operator" issues={[]}>
              {(c) => (
                <select {...c} value={d.op} onChange={(e) => set({ op: e.target.value })}>
                  {['eq', 'ne', 'gt', 'lt', 'exists', 'contains'].map((o) => (
                    <option key={o}>{o}</option>
                  ))}
                </select>
              )}
            </Field>
            {d.op !== 'exists' ? (
              <Field label="Value" issues={[]} hint={'JSON (3, true, "x") or plain text'}>
                {(c) => <input {...c} value={d.value} onChange={(e) => set({ value: e.target.value })} />}
              </Field>
            ) : null}
          </div>
          <ReferencePicker
            label={`Choose the reference ${step} tests`}
            references={references}
            onPick={(r) => set({ path: `${r}.` })}
          />
          <Field label="When false" issues={at('else')}>
            {(c) => (
              <select {...c} value={d.else} onChange={(e) => set({ else: e.target.value })}>
                <option value="stop">Stop the flow run (succeeded)</option>
                {laterSteps.map((n) => (
                  <option key={n} value={n}>
                    Jump to {n}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </>
      ) : null}

      {d.type === 'delay' ? (
        <Field label="Seconds to wait" issues={at('seconds')} hint="1 to 2,592,000 (30 days)">
          {(c) => (
            <input
              {...c}
              type="number"
              min={1}
              max={2592000}
              required
              value={d.seconds}
              onChange={(e) => set({ seconds: e.target.value })}
            />
          )}
        </Field>
      ) : null}

      {d.type === 'save_output' ? (
        <>
          <Field label="Output connection" issues={at('connectionId')}>
            {(c) =>
              connections.data ? (
                <select {...c} required value={d.connectionId} onChange={(e) => set({ connectionId: e.target.value })}>
                  <option value="">Choose a connection…</option>
                  {connections.data.outputConnections.map((o) => (
                    <option key={o.id} value={o.id}>
                      {o.name} ({o.type})
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  {...c}
                  required
                  placeholder="Connection id"
                  value={d.connectionId}
                  onChange={(e) => set({ connectionId: e.target.value })}
                />
              )
            }
          </Field>
          <Field label="What to send" issues={at('from')} hint="A reference without braces">
            {(c) => <input {...c} required value={d.from} onChange={(e) => set({ from: e.target.value })} />}
          </Field>
          <ReferencePicker
            label={`Choose what ${step} sends`}
            references={references}
            onPick={(r) => set({ from: r })}
          />
        </>
      ) : null}
    </div>
  );
}
