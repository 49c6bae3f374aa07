/** One configured OpenAI-compatible model and its own prices (USD per million tokens). */
export interface OpenAIModelSetting {
  name: string;
  inputPerMTokUsd: number;
  outputPerMTokUsd: number;
}

const PRICE = /^\d+(?:\.\d+)?$/;

/**
 * Reads `SVC_OPENAI_MODELS`: comma-separated entries `name:inputPerMTok:outputPerMTok` (USD per million
 * tokens), e.g. `gpt-4o-mini:0.15:0.60,gpt-4o:2.5:10`. A bare `name` (the older form) takes the default
 * prices (`SVC_OPENAI_INPUT_PER_MTOK_USD` / `SVC_OPENAI_OUTPUT_PER_MTOK_USD`). Names may hold colons
 * themselves (`llama3:8b`): only two trailing numbers are read as prices (docs/api/agents.md).
 * @throws {Error} naming the entry, for an entry with one price, an empty name or a name given twice
 */
export function parseOpenAIModels(
  value: string,
  defaults: { inputPerMTokUsd: number; outputPerMTokUsd: number },
): OpenAIModelSetting[] {
  const out: OpenAIModelSetting[] = [];
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const parts = entry.split(':');
    const last = parts.at(-1) ?? '';
    const before = parts.at(-2) ?? '';
    let model: OpenAIModelSetting;
    if (parts.length >= 3 && PRICE.test(last) && PRICE.test(before)) {
      model = { name: parts.slice(0, -2).join(':'), inputPerMTokUsd: Number(before), outputPerMTokUsd: Number(last) };
    } else if (parts.length === 2 && PRICE.test(last)) {
      throw new Error(
        `"${entry}" has one price; write name:inputPerMTokUsd:outputPerMTokUsd (e.g. gpt-4o-mini:0.15:0.60)`,
      );
    } else {
      model = { name: entry, ...defaults };
    }
    if (!model.name) throw new Error(`"${entry}" has no model name`);
    if (out.some((m) => m.name === model.name)) throw new Error(`model "${model.name}" is listed twice`);
    out.push(model);
  }
  return out;
}
