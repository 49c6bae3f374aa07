import { issuesAt, referencesBefore, STEP_TYPES, type Issue, type StepType } from './flowApi';
import { StepFields } from './StepFields';
import { blankDraft, type DraftProblem, type StepDraft } from './stepDraft';

/**
 * The ordered steps of a flow: add a step of any type, reorder, remove, and each step's fields. The
 * service's problems (`issues`, paths under `steps.<i>`) and the editor's own (`problems`, by index) are
 * shown at the step and field they name.
 */
export function StepEditor({
  drafts,
  onChange,
  issues,
  problems,
}: {
  drafts: StepDraft[];
  onChange: (drafts: StepDraft[]) => void;
  issues: Issue[];
  problems: DraftProblem[][];
}) {
  const names = drafts.map((d) => d.name.trim());
  const set = (i: number, d: StepDraft) => onChange(drafts.map((x, j) => (j === i ? d : x)));
  const move = (i: number, by: number) => {
    const next = [...drafts];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    onChange(next);
  };
  const add = (type: StepType) => {
    let n = drafts.length + 1;
    while (names.includes(`${type}_${n}`)) n++;
    onChange([...drafts, blankDraft(type, `${type}_${n}`)]);
  };
  return (
    <fieldset className="steps">
      <legend>Steps (run in order)</legend>
      {issuesAt(issues, 'steps')
        .filter((i) => i.path === '')
        .map((i) => (
          <p key={i.message} className="invalid small" role="alert">
            {i.message}
          </p>
        ))}
      <ol className="step-list">
        {drafts.map((d, i) => {
          const stepIssues = issuesAt(issues, `steps.${i}`);
          const label = `Step ${i + 1}`;
          return (
            <li key={d.key} className="step-card">
              <div className="step-head">
                <h3>
                  {label} · {STEP_TYPES.find((t) => t.type === d.type)?.label}
                </h3>
                <div className="actions inline">
                  <button type="button" disabled={i === 0} onClick={() => move(i, -1)} aria-label={`Move ${label} up`}>
                    ↑
                  </button>
                  <button
                    type="button"
                    disabled={i === drafts.length - 1}
                    onClick={() => move(i, 1)}
                    aria-label={`Move ${label} down`}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="danger"
                    disabled={drafts.length === 1}
                    onClick={() => onChange(drafts.filter((_, j) => j !== i))}
                    aria-label={`Remove ${label}`}
                  >
                    Remove
                  </button>
                </div>
              </div>
              <StepFields
                draft={d}
                index={i}
                onChange={(next) => set(i, next)}
                references={referencesBefore(names, i)}
                laterSteps={names.slice(i + 1).filter(Boolean)}
                issues={[...stepIssues, ...(problems[i] ?? []).map((p) => ({ path: p.field, message: p.message }))]}
              />
            </li>
          );
        })}
      </ol>
      <div className="add-step">
        <span className="small">Add a step:</span>
        <div className="actions inline">
          {STEP_TYPES.map((t) => (
            <button key={t.type} type="button" onClick={() => add(t.type)} title={t.help}>
              + {t.label}
            </button>
          ))}
        </div>
      </div>
    </fieldset>
  );
}
