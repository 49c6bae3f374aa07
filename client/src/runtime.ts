/**
 * The few things the client needs from its runtime, found without importing Node-only modules
 * statically, so the package also loads in browsers, Deno, Bun and edge runtimes.
 */

/** The subset of `node:crypto` the client uses: Node 18 has no global `crypto` without a flag. */
interface NodeCrypto {
  randomUUID(): string;
}

let nodeCrypto: Promise<NodeCrypto | undefined> | undefined;

/**
 * `node:crypto` when the runtime has it, else `undefined`. The specifier sits in a variable so bundlers
 * targeting browsers neither resolve nor inline it; a failed import just means "not Node".
 */
function loadNodeCrypto(): Promise<NodeCrypto | undefined> {
  if (!nodeCrypto) {
    const specifier = 'node:crypto';
    const proc = (globalThis as { process?: { versions?: { node?: string } } }).process;
    nodeCrypto = proc?.versions?.node
      ? import(/* webpackIgnore: true */ /* @vite-ignore */ specifier).then(
          (mod: NodeCrypto & { default?: NodeCrypto }) => (typeof mod.randomUUID === 'function' ? mod : mod.default),
          () => undefined,
        )
      : Promise.resolve(undefined);
  }
  return nodeCrypto;
}

/** A random v4 UUID from Web Crypto, or from `node:crypto` on Node 18 where `globalThis.crypto` may be absent. */
export async function randomUUID(): Promise<string> {
  const webCrypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (typeof webCrypto?.randomUUID === 'function') return webCrypto.randomUUID();
  const node = await loadNodeCrypto();
  if (node) return node.randomUUID();
  throw new Error('No crypto.randomUUID available in this runtime');
}

/** `process.env[name]` where a `process` global exists (Node, Bun), else `undefined`. */
export function readEnv(name: string): string | undefined {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  const value = proc?.env?.[name];
  return value === undefined || value === '' ? undefined : value.trim();
}

/**
 * Resolves after `ms` milliseconds, or rejects with the signal's reason as soon as `signal` aborts.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
