import { z } from 'zod';
import type { AssistedModel } from './assisted';
import { BUILTIN_PRICING, BUILTIN_PROVIDER, withUsage } from './builtin';
import type { ModelInfo, ModelProvider, TurnRequest, TurnResult } from './types';

/** The id of the tutor's model. */
export const TUTOR_MODEL_ID = 'builtin/tutor';

const INFO: ModelInfo = { id: TUTOR_MODEL_ID, provider: BUILTIN_PROVIDER, pricing: BUILTIN_PRICING };

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** Cut to `max` characters, so a long message is not repeated whole. */
const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * `builtin/tutor` (docs/api/tutor.md): the model of tutor agents. It reads a tutor turn's run input (the
 * topic, the transcript, the learner's message) and answers `{ reply }` by fixed rules: the first turn asks
 * what the learner knows of the topic, every later one asks them to explain their last message with an
 * example. No network, deterministic.
 */
export const tutorProvider: ModelProvider = {
  name: BUILTIN_PROVIDER,
  inProcess: true,
  models: () => [{ ...INFO, pricing: { ...INFO.pricing } }],
  async turn(req: TurnRequest): Promise<TurnResult> {
    const input = req.runInput ?? {};
    const topic = str(input.topic) || str(input.subject) || 'this topic';
    const message = clip(str(input.message));
    const first = !Array.isArray(input.transcript) || input.transcript.length === 0;
    const reply = first
      ? `Let's study ${topic}. What do you already know about it?`
      : `You said: "${message}". Can you explain that in your own words, with an example from ${topic}?`;
    return withUsage(req, { kind: 'final', output: { reply } });
  },
};

const TUTOR_PROMPT = `You are a patient tutor on a run-orchestration service. The user message is JSON:
{ "topic": "<what the learner studies>", "transcript": [{ "role": "user" | "assistant", "text" }], "message": "<the learner's new message>" }.
Teach the topic step by step: answer the message, correct mistakes kindly, and end with one question that checks understanding.
Answer with ONE JSON object and nothing else: { "reply": "<your answer to the learner, plain text>" }`;

const tutorReply = z.object({ reply: z.string().trim().min(1).max(4000) });

/**
 * `builtin/tutor` as the assistant model answers it: the tutor prompt, then the agent's own instructions
 * (what the workspace wants taught and how), asking for `{ reply }`; anything else gets the rules' reply
 * (assisted.ts).
 */
export const ASSISTED_TUTOR: AssistedModel = {
  id: TUTOR_MODEL_ID,
  rules: tutorProvider,
  prompt: (_input, instructions) =>
    instructions ? `${TUTOR_PROMPT}\n\nThe tutor's instructions:\n${instructions}` : TUTOR_PROMPT,
  reply: () => tutorReply,
};
