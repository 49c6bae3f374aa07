import type { FlowStep, StepType } from './flowApi';

/**
 * A step as the editor holds it: every field as the text in its control, so a half-typed JSON body or
 * number is kept as typed and only turned into the step the service reads when the flow is saved.
 */
export interface StepDraft {
  key: number;
  name: string;
  type: StepType;
  agentId: string;
  input: string;
  method: string;
  url: string;
  headers: string;
  body: string;
  message: string;
  path: string;
  op: string;
  value: string;
  else: string;
  seconds: string;
  connectionId: string;
  from: string;
}

let nextKey = 1;

export function blankDraft(type: StepType, name: string): StepDraft {
  return {
    key: nextKey++,
    name,
    type,
    agentId: '',
    input: '{}',
    method: 'POST',
    url: '',
    headers: '',
    body: '',
    message: '',
    path: '',
    op: 'eq',
    value: '',
    else: 'stop',
    seconds: '60',
    connectionId: '',
    from: '',
  };
}

const text = (v: unknown) => (v === undefined ? '' : JSON.stringify(v, null, 2));

/** The editor's draft of a saved step. */
export function draftOf(step: FlowStep): StepDraft {
  const d = blankDraft(step.type, step.name);
  switch (step.type) {
    case 'agent':
      return { ...d, agentId: step.agentId, input: text(step.input ?? {}) };
    case 'http':
      return { ...d, method: step.method, url: step.url, headers: text(step.headers), body: text(step.body) };
    case 'approval':
      return { ...d, message: step.message };
    case 'condition':
      return {
        ...d,
        path: step.if.path,
        op: step.if.op,
        value: typeof step.if.value === 'string' ? step.if.value : text(step.if.value),
        else: step.else,
      };
    case 'delay':
      return { ...d, seconds: String(step.seconds) };
    case 'save_output':
      return { ...d, connectionId: step.connectionId, from: step.from };
  }
}

/** A problem the editor finds before asking the service: the field and what is wrong with it. */
export interface DraftProblem {
  field: string;
  message: string;
}

function parse(textValue: string, field: string, problems: DraftProblem[], object: boolean): unknown {
  try {
    const v = JSON.parse(textValue) as unknown;
    if (object && (typeof v !== 'object' || v === null || Array.isArray(v))) {
      problems.push({ field, message: 'Must be a JSON object' });
    }
    return v;
  } catch (err) {
    problems.push({ field, message: `Invalid JSON: ${(err as Error).message}` });
    return undefined;
  }
}

/** A condition's value: JSON when it reads as JSON (`3`, `true`, `"x"`), else the text itself. */
function conditionValue(v: string): unknown {
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

/** The step the service reads, or the fields whose text cannot become one. */
export function stepOf(d: StepDraft): { step: FlowStep; problems: DraftProblem[] } {
  const problems: DraftProblem[] = [];
  const name = d.name.trim();
  let step: FlowStep;
  switch (d.type) {
    case 'agent':
      step = {
        name,
        type: 'agent',
        agentId: d.agentId,
        input: parse(d.input || '{}', 'input', problems, true) as never,
      };
      break;
    case 'http': {
      const headers = d.headers.trim() ? parse(d.headers, 'headers', problems, true) : undefined;
      const body = d.body.trim() ? parse(d.body, 'body', problems, false) : undefined;
      step = {
        name,
        type: 'http',
        method: d.method as 'GET',
        url: d.url.trim(),
        ...(headers !== undefined ? { headers: headers as Record<string, string> } : {}),
        ...(body !== undefined ? { body } : {}),
      };
      break;
    }
    case 'approval':
      step = { name, type: 'approval', message: d.message };
      break;
    case 'condition':
      step = {
        name,
        type: 'condition',
        if: {
          path: d.path.trim(),
          op: d.op as 'eq',
          ...(d.op !== 'exists' ? { value: conditionValue(d.value) } : {}),
        },
        else: d.else.trim() || 'stop',
      };
      break;
    case 'delay': {
      const seconds = Number(d.seconds);
      if (!Number.isInteger(seconds)) problems.push({ field: 'seconds', message: 'A whole number of seconds' });
      step = { name, type: 'delay', seconds };
      break;
    }
    case 'save_output':
      step = { name, type: 'save_output', connectionId: d.connectionId, from: d.from.trim() };
      break;
  }
  return { step, problems };
}
