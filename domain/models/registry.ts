import type { Config } from '../../platform/config';
import { estimateTokens } from './builtin';
import { echoProvider } from './echo';
import { createOpenAIProvider, OPENAI_PREFIX, type OpenAIProviderOptions } from './openai';
import { scriptedProvider } from './scripted';
import { copilotProvider } from './copilot';
import { ASSISTED_COPILOT } from './assistantCopilot';
import { assistedBy } from './assisted';
import { ASSISTED_TUTOR, tutorProvider } from './tutor';
import { ModelError, type ModelInfo, type ModelProvider, type TurnRequest, type TurnResult } from './types';

export { estimateTokens };

/** Every model the service knows, behind one interface (worker: turns; API: catalogue and pricing). */
export interface ModelRegistry {
  /** The models `GET /v1/models` lists: the built-ins first, then the configured OpenAI models. */
  list(): ModelInfo[];
  /** The model with that id, or `undefined` when it is unknown (or its provider is not configured). */
  get(modelId: string): ModelInfo | undefined;
  /**
   * Runs one model turn. Rejects with a non-retryable {@link ModelError} for an unknown model, with
   * the provider's `ModelError`s, or with `signal.reason` when the caller cancels.
   */
  turn(req: TurnRequest, signal?: AbortSignal): Promise<TurnResult>;
  /** Whether the model's turns are computed in this process with no I/O (ModelProvider `inProcess`). */
  inProcess(modelId: string): boolean;
  /**
   * The real model named for the assistant features (`SVC_ASSISTANT_MODEL`), or `undefined` when none is
   * configured and the features keep their deterministic rules (docs/api/agents.md#the-assistant-model).
   */
  assistant(): ModelInfo | undefined;
}

/**
 * Builds the registry. Ids route by prefix: `builtin/` to the built-ins (always
 * present, no network), `openai/` to the chat-completions provider, which exists only when a base
 * URL and at least one model are configured. With `assistantModel` (one of those) the copilots' and the tutor's
 * models (`builtin/copilot`, `builtin/tutor`) answer through it (assisted.ts). `overrides` reach the OpenAI
 * provider (tests).
 */
export function createModelRegistry(
  config: Config['openai'],
  overrides: Partial<Pick<OpenAIProviderOptions, 'fetch'>> = {},
): ModelRegistry {
  const providers: ModelProvider[] = [echoProvider, scriptedProvider];
  const openai =
    config.baseUrl && config.models.length > 0
      ? createOpenAIProvider({ ...config, baseUrl: config.baseUrl, ...overrides })
      : undefined;
  // The copilots and the tutor answer with a real model when one is named for the assistant features, else by their rules.
  const assistant = openai?.models().find((m) => m.id === config.assistantModel);
  providers.push(openai && assistant ? assistedBy(ASSISTED_COPILOT, openai, assistant) : copilotProvider);
  providers.push(openai && assistant ? assistedBy(ASSISTED_TUTOR, openai, assistant) : tutorProvider);
  if (openai) providers.push(openai);
  const byId = new Map<string, { info: ModelInfo; provider: ModelProvider }>();
  for (const provider of providers) {
    for (const info of provider.models()) byId.set(info.id, { info, provider });
  }
  // Callers get copies, so nobody can change a price for everyone else.
  const copy = (info: ModelInfo): ModelInfo => ({ ...info, pricing: { ...info.pricing } });

  return {
    list: () => [...byId.values()].map(({ info }) => copy(info)),
    get(modelId) {
      const entry = byId.get(modelId);
      return entry ? copy(entry.info) : undefined;
    },
    inProcess: (modelId) => byId.get(modelId)?.provider.inProcess === true,
    assistant: () => (assistant ? copy(assistant) : undefined),
    async turn(req, signal) {
      signal?.throwIfAborted();
      const entry = byId.get(req.modelId);
      if (!entry) {
        const hint = req.modelId.startsWith(OPENAI_PREFIX) ? ' (OpenAI models are not configured)' : '';
        throw new ModelError(`Unknown model ${req.modelId}${hint}`, false);
      }
      return entry.provider.turn(req, signal);
    },
  };
}

/**
 * The cost reserved before a run starts (docs/api/billing.md; the credit check's `required` is the model's
 * `perRunUsd` plus the estimated tokens): `perRunUsd` + `ceil(chars(JSON input) / 4)` input tokens
 * at the model's input price. Output tokens cannot be known up front and are charged when the run ends.
 */
export function estimateRunCostUsd(model: ModelInfo, runInput: unknown): number {
  const text = JSON.stringify(runInput ?? {}) ?? '';
  return model.pricing.perRunUsd + (estimateTokens(text) * model.pricing.inputPerMTokUsd) / 1e6;
}
