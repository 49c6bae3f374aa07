import type { EvalCase, EvalScorer } from '@svc/client';
import { useId } from 'react';
import { JsonEditor, jsonProblem } from '../../components/JsonEditor';
import './evals.css';

/** A case as the form holds it: JSON texts, and the answers one per line. */
export interface CaseDraft {
  input: string;
  expected: string;
  scorer: EvalScorer;
  answers: string;
}

const SCORER_LABELS: Record<EvalScorer, string> = {
  exact: 'exact: the output equals the expected JSON',
  contains: "contains: the output's text contains the expected text",
  json_subset: 'json_subset: the output holds the expected keys and values',
  judge: "judge: the agent's model scores the output",
};
const SCORERS = Object.keys(SCORER_LABELS) as EvalScorer[];

export const emptyCase = (): CaseDraft => ({ input: '{\n  \n}', expected: '""', scorer: 'exact', answers: '' });

export const toDraft = (c: EvalCase): CaseDraft => ({
  input: JSON.stringify(c.input, null, 2),
  expected: JSON.stringify(c.expected, null, 2),
  scorer: c.scorer,
  answers: (c.answers ?? []).join('\n'),
});

/** Whether the draft can be sent: its input a JSON object, its expected value JSON. */
export const draftProblem = (d: CaseDraft): string | null =>
  (jsonProblem(d.input, true) ?? jsonProblem(d.expected)) ? 'Fix the JSON of this case' : null;

export function fromDraft(d: CaseDraft): EvalCase {
  const answers = d.answers.split('\n').filter((a) => a.trim() !== '');
  return {
    input: JSON.parse(d.input) as Record<string, unknown>,
    expected: JSON.parse(d.expected) as unknown,
    scorer: d.scorer,
    ...(answers.length > 0 ? { answers } : {}),
  };
}

/** One case of an eval being written: the run input, the expected output, the scorer and the answers. */
export function CaseEditor({
  index,
  draft,
  onChange,
  onRemove,
}: {
  index: number;
  draft: CaseDraft;
  onChange: (d: CaseDraft) => void;
  onRemove?: () => void;
}) {
  const id = useId();
  return (
    <fieldset className="case">
      <legend>Case {index + 1}</legend>
      <JsonEditor
        label={`Case ${index + 1} input (JSON object)`}
        value={draft.input}
        onChange={(input) => onChange({ ...draft, input })}
        rows={4}
        requireObject
      />
      <JsonEditor
        label={`Case ${index + 1} expected output (JSON)`}
        value={draft.expected}
        onChange={(expected) => onChange({ ...draft, expected })}
        rows={3}
      />
      <div className="field">
        <label htmlFor={`${id}-scorer`}>Case {index + 1} scorer</label>
        <select
          id={`${id}-scorer`}
          value={draft.scorer}
          onChange={(e) => onChange({ ...draft, scorer: e.target.value as EvalScorer })}
        >
          {SCORERS.map((s) => (
            <option key={s} value={s}>
              {SCORER_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-answers`}>
          Case {index + 1} answers to the agent's questions (one per line, in order)
        </label>
        <textarea
          id={`${id}-answers`}
          rows={2}
          value={draft.answers}
          onChange={(e) => onChange({ ...draft, answers: e.target.value })}
        />
      </div>
      {onRemove ? (
        <button type="button" className="danger" onClick={onRemove}>
          Remove case {index + 1}
        </button>
      ) : null}
    </fieldset>
  );
}
