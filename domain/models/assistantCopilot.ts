import { z } from 'zod';
import { BUILTIN_PRICING, BUILTIN_PROVIDER } from './builtin';
import { COPILOT_MODEL_ID, copilotProvider } from './copilot';
import type { ModelInfo, ModelProvider, TurnRequest, TurnResult, Usage } from './types';

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
          tools: z.array(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/)).max(50).optional(),
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
          .array(z.object({ column: z.string().min(1).max(200), op: z.literal('eq'), value: z.union([z.string(), z.number()]) }))
          .max(10)
          .optional(),
      })
      .optional(),
  });

const add = (a: Usage, b: Usage): Usage => ({
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
});

/**
 * `builtin/copilot` answered by a real model (`SVC_ASSISTANT_MODEL`, docs/api/copilots.md): the copilot turn's
 * input goes to `assistantModelId` with a prompt that asks for the copilot's JSON shape, and the answer is
 * checked with zod (a proposal must change something; a read must name one of the data source's objects).
 * A reply that does not fit (prose, invalid JSON, an invented object, a tool call) is answered by the
 * deterministic rules instead, so a copilot never shows a malformed answer; the tokens the model used are
 * still counted. Provider errors propagate unchanged (the run's retry policy handles them). The copilot's
 * price is the assistant model's token prices plus the built-in per-run price.
 */
export function createAssistantCopilot(real: ModelProvider, assistant: ModelInfo): ModelProvider {
  const info: ModelInfo = {
    id: COPILOT_MODEL_ID,
    provider: BUILTIN_PROVIDER,
    pricing: { ...assistant.pricing, perRunUsd: BUILTIN_PRICING.perRunUsd },
  };
  return {
    name: BUILTIN_PROVIDER,
    models: () => [{ ...info, pricing: { ...info.pricing } }],
    async turn(req: TurnRequest, signal?: AbortSignal): Promise<TurnResult> {
      const input = req.runInput ?? {};
      const dataSource = input.copilot === 'data_source';
      const answer = await real.turn(
        {
          modelId: assistant.id,
          instructions: dataSource ? DATA_SOURCE_PROMPT : AGENT_PROMPT,
          runInput: input,
          messages: [],
          tools: [],
        },
        signal,
      );
      if (answer.kind === 'final') {
        const objects = Array.isArray(input.objects) ? input.objects.filter((o) => typeof o === 'string') : [];
        const parsed = (dataSource ? dataSourceReply(objects) : agentReply).safeParse(answer.output);
        if (parsed.success) return { kind: 'final', output: parsed.data, usage: answer.usage };
      }
      const fallback = await copilotProvider.turn(req);
      return { ...fallback, usage: add(fallback.usage, answer.usage) } as TurnResult;
    },
  };
}
