import { BUILTIN_PRICING, BUILTIN_PROVIDER, withUsage } from './builtin';
import type { ModelInfo, ModelProvider, TurnRequest, TurnResult } from './types';

/** The id of the echo model. */
export const ECHO_MODEL_ID = 'builtin/echo';

const INFO: ModelInfo = { id: ECHO_MODEL_ID, provider: BUILTIN_PROVIDER, pricing: BUILTIN_PRICING };

/**
 * `builtin/echo` (docs/api/agents.md): answers every turn, the first included, with the final output
 * `{ echo: <run input> }`. No network, deterministic, so it is safe under Temporal replay.
 */
export const echoProvider: ModelProvider = {
  name: BUILTIN_PROVIDER,
  inProcess: true,
  models: () => [{ ...INFO, pricing: { ...INFO.pricing } }],
  async turn(req: TurnRequest): Promise<TurnResult> {
    return withUsage(req, { kind: 'final', output: { echo: req.runInput } });
  },
};
