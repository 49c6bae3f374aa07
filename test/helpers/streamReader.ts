/**
 * Reads a response body until it ends, and answers what was read; undefined when it has not ended within
 * `ms` (a stream that should close by itself and does not). The bound is what such a test asserts: the
 * timer lives here, in the helpers, where test/architecture/noSleeps.test.ts allows one.
 */
export async function readToEnd(res: Response, ms: number): Promise<string | undefined> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    for (;;) {
      const next = await Promise.race([
        reader.read().catch(() => ({ done: true as const, value: undefined })),
        expired,
      ]);
      if (!next) return undefined;
      if (next.done) return text;
      text += decoder.decode(next.value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
    reader.cancel().catch(() => undefined);
  }
}
