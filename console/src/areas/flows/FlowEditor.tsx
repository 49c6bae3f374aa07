import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api';
import { ErrorBox } from '../../components/States';
import { issuesOf, type Flow } from './flowApi';
import { StepEditor } from './StepEditor';
import { draftOf, stepOf, type StepDraft } from './stepDraft';
import { TriggerFields, triggerOf, type TriggerDraft } from './TriggerFields';

/**
 * Changes a flow's name, trigger and steps (`PATCH /v1/flows/{id}`); runs in flight keep the steps they
 * began with. Header values come back as "[hidden]" and are sent back so, which keeps them.
 */
export function FlowEditor({ flow, onSaved }: { flow: Flow; onSaved: (f: Flow) => void }) {
  const [name, setName] = useState(flow.name);
  const [trigger, setTrigger] = useState<TriggerDraft>({
    type: flow.trigger.type,
    cron: flow.trigger.cron ?? '',
    timezone: flow.trigger.timezone ?? 'UTC',
  });
  const [drafts, setDrafts] = useState<StepDraft[]>(() => flow.steps.map(draftOf));
  const built = drafts.map(stepOf);
  const problems = built.map((b) => b.problems);
  const blocked = problems.some((p) => p.length > 0);
  const save = useMutation({
    mutationFn: () =>
      api<Flow>(`/v1/flows/${flow.id}`, {
        method: 'PATCH',
        json: { name: name.trim(), trigger: triggerOf(trigger), steps: built.map((b) => b.step) },
      }),
    // a trigger changed to a webhook made a token: its URL is in this answer only (`onSaved` shows it)
    onSuccess: onSaved,
  });
  const issues = issuesOf(save.error);
  return (
    <form
      className="panel"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!blocked) save.mutate();
      }}
    >
      <h2>Edit the flow</h2>
      <div className="field">
        <label htmlFor="edit-flow-name">Name</label>
        <input id="edit-flow-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <TriggerFields value={trigger} onChange={setTrigger} issues={issues} />
      <StepEditor drafts={drafts} onChange={setDrafts} issues={issues} problems={problems} />
      <ErrorBox error={save.error} title="Could not save the flow" />
      <button className="primary" type="submit" disabled={save.isPending || !name.trim() || blocked}>
        Save changes
      </button>
    </form>
  );
}
