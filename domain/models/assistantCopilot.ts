import { z } from 'zod';
import type { AssistedModel } from './assisted';
import { COPILOT_MODEL_ID, copilotProvider } from './copilot';

const AGENT_PROMPT = `You are the copilot of an agent on a run-orchestration service. The user message is JSON:
{ "copilot": "agent", "agent": { "name", "modelId", "tools": [...], "hasInstructions" }, "message": "<the person's message>" }.
Answer with ONE JSON object and nothing else:
{ "reply": "<your answer to the person, plain text>", "proposal"?: { "changes": { "instructions"?: "<new instructions>", "tools"?: ["<tool name>", ...] }, "rationale": "<why>" } }
Include "proposal" only when the person asks for a change to the agent's instructions or tools; "tools" is the full new list.`;

const DATA_SOURCE_PROMPT = `You are the copilot of a data source on a run-orchestration service. The user message is JSON:
{ "copilot": "data_source", "dataSource": { "name", "type" }, "objects": ["<table or sheet>", ...], "message": "<the question>" }.
You never write SQL. Answer with ONE JSON object and nothing else:
{ "reply": "<a short answer>", "read"?: { "object": "<one of objects>", "limit"?: <1..1000>, "where"?: [{ "column": "<name>", "op": "eq", "value": <string or number> }] } }
Include "read" when the question asks for rows of one of the objects.`;

const agentReply = z.object({
  reply: z.string().min(1).max(4000),
  proposal: z
    .object({
      changes: z
        .object({
          instructions: z.string().min(1).max(20_000).optional(),
          tools: z
            .array(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/))
            .max(50)
            .optional(),
        })
        .strict()
        .refine((c) => c.instructions !== undefined || c.tools !== undefined, 'a proposal changes something'),
      rationale: z.string().max(4000).default(''),
    })
    .optional(),
});

/** The data-source reply; `objects` are the names the read may name (the model must not invent one). */
const dataSourceReply = (objects: string[]) =>
  z.object({
    reply: z.string().min(1).max(4000),
    read: z
      .object({
        object: z.string().refine((o) => objects.includes(o), 'an object of the data source'),
        limit: z.number().int().min(1).max(1000).default(10),
        where: z
          .array(
            z.object({
              column: z.string().min(1).max(200),
              op: z.literal('eq'),
              value: z.union([z.string(), z.number()]),
            }),
          )
          .max(10)
          .optional(),
      })
      .optional(),
  });

/**
 * `builtin/copilot` as the assistant model answers it (docs/api/copilots.md): the copilot's JSON shape is
 * asked for, and checked (a proposal must change something; a read must name one of the data source's
 * objects, never SQL); anything else is answered by the copilot's rules (assisted.ts).
 */
export const ASSISTED_COPILOT: AssistedModel = {
  id: COPILOT_MODEL_ID,
  rules: copilotProvider,
  prompt: (input) => (input.copilot === 'data_source' ? DATA_SOURCE_PROMPT : AGENT_PROMPT),
  reply(input) {
    if (input.copilot !== 'data_source') return agentReply;
    return dataSourceReply(Array.isArray(input.objects) ? input.objects.filter((o) => typeof o === 'string') : []);
  },
};
