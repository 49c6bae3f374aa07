import type { FlowError } from '../../workflows/flowMessages';

/** A step that failed for good with one of the flow error codes (workflows/flowMessages.ts `FlowFailure`). */
export class FlowStepError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'FlowStepError';
  }

  toJSON(): FlowError {
    return { code: this.code, message: this.message };
  }
}
