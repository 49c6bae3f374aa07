/** Why a file's bytes give no text: the message names the cause (docs/api/knowledge.md). */
export class ExtractError extends Error {}
