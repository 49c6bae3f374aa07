import { useId } from 'react';
import type { FlowTriggerType } from '@svc/client';
import { issuesAt, type Issue } from './flowApi';

export interface TriggerDraft {
  type: FlowTriggerType;
  cron: string;
  timezone: string;
}

export const TRIGGER_LABELS: Record<FlowTriggerType, string> = {
  manual: 'By hand (Run now)',
  webhook: 'Webhook (a URL that starts a run on POST)',
  schedule: 'Schedule (cron in a time zone)',
};

const zones = (() => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC'];
  }
})();

/** The trigger as the service reads it: cron and time zone only for schedules. */
export function triggerOf(t: TriggerDraft) {
  return t.type === 'schedule'
    ? { type: t.type, cron: t.cron.trim(), timezone: t.timezone.trim() || 'UTC' }
    : { type: t.type };
}

/** How a flow starts: its type and, for a schedule, the cron and time zone, with the service's problems. */
export function TriggerFields({
  value,
  onChange,
  issues,
}: {
  value: TriggerDraft;
  onChange: (t: TriggerDraft) => void;
  issues: Issue[];
}) {
  const id = useId();
  const at = (f: string) => issuesAt(issues, `trigger.${f}`);
  const whole = issuesAt(issues, 'trigger').filter((i) => i.path === '' || i.path === 'type');
  const problem = (f: string) =>
    at(f).length ? (
      <span id={`${id}-${f}-err`} className="invalid small" role="alert">
        {at(f)
          .map((i) => i.message)
          .join('; ')}
      </span>
    ) : null;
  return (
    <fieldset>
      <legend>Trigger</legend>
      {whole.map((i) => (
        <p key={i.message} className="invalid small" role="alert">
          {i.message}
        </p>
      ))}
      <div className="field">
        <label htmlFor={`${id}-type`}>Starts</label>
        <select
          id={`${id}-type`}
          value={value.type}
          onChange={(e) => onChange({ ...value, type: e.target.value as FlowTriggerType })}
        >
          {(Object.keys(TRIGGER_LABELS) as FlowTriggerType[]).map((t) => (
            <option key={t} value={t}>
              {TRIGGER_LABELS[t]}
            </option>
          ))}
        </select>
      </div>
      {value.type === 'schedule' ? (
        <div className="row">
          <div className="field">
            <label htmlFor={`${id}-cron`}>Cron (five fields or a macro)</label>
            <input
              id={`${id}-cron`}
              className="code"
              required
              placeholder="0 9 * * 1-5"
              value={value.cron}
              aria-invalid={at('cron').length ? true : undefined}
              aria-describedby={at('cron').length ? `${id}-cron-err` : undefined}
              onChange={(e) => onChange({ ...value, cron: e.target.value })}
            />
            {problem('cron')}
          </div>
          <div className="field">
            <label htmlFor={`${id}-tz`}>Time zone</label>
            <input
              id={`${id}-tz`}
              list={`${id}-zones`}
              value={value.timezone}
              placeholder="UTC"
              aria-invalid={at('timezone').length ? true : undefined}
              aria-describedby={at('timezone').length ? `${id}-timezone-err` : undefined}
              onChange={(e) => onChange({ ...value, timezone: e.target.value })}
            />
            <datalist id={`${id}-zones`}>
              {zones.map((z) => (
                <option key={z} value={z} />
              ))}
            </datalist>
            {problem('timezone')}
          </div>
        </div>
      ) : null}
    </fieldset>
  );
}
