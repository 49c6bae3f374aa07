// Separate from storage.ts so implementations can import them without a require cycle.

/** The stream carried more than the allowed bytes; the caller answers 413 `payload_too_large`. */
export class StorageLimitError extends Error {
  constructor(readonly maxBytes: number) {
    super(`More than ${maxBytes} bytes`);
    this.name = 'StorageLimitError';
  }
}

/** No object under the key. */
export class StorageNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No stored object ${key}`);
    this.name = 'StorageNotFoundError';
  }
}
