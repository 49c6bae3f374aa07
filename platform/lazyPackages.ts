/**
 * Packages loaded on their first use instead of when the process starts. These serve rare operations
 * (spreadsheet and PDF writing, PDF reading, the model SDK, the S3 and MySQL clients) and take about 1.3 s of
 * CPU to load together: on every API and worker start, and in every test file that builds the app. The few
 * requests that need one pay its load once per process. This file is the only place that loads them;
 * test/architecture/lazyPackages.test.ts holds that, and that building the app and the worker loads none
 * (docs/architecture.md#packages-loaded-on-first-use). Elsewhere they are imported for types only.
 */

/** `load`, called once on first use; a failed load is tried again by the next use, not remembered. */
function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load().catch((err: unknown) => {
      loaded = undefined;
      throw err;
    });
    return loaded;
  };
}

export const exceljs = onFirstUse(async () => (await import('exceljs')).default);
export const pdfLib = onFirstUse(() => import('pdf-lib'));
export const pdf2json = onFirstUse(async () => (await import('pdf2json')).default);
export const openaiSdk = onFirstUse(() => import('openai'));
export const s3Sdk = onFirstUse(async () => ({
  ...(await import('@aws-sdk/client-s3')),
  ...(await import('@aws-sdk/lib-storage')),
}));
export const mysql = onFirstUse(() => import('mysql2/promise'));

/** Every package this file loads: the architecture test keeps each off the start-up path. */
export const LAZY_PACKAGES = [
  'exceljs',
  'pdf-lib',
  'pdf2json',
  'openai',
  '@aws-sdk/client-s3',
  '@aws-sdk/lib-storage',
  'mysql2',
];
