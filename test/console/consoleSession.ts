import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Config } from '../../platform/config';
import { signUp, type Account } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { startRunStack } from '../helpers/worker';
import { ensureConsoleBuilt, launch } from './browser';

export interface ConsoleSession {
  h: Harness;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** The owner who signed up; the page is signed in as them. */
  account: Account;
  /** Opens a console path (`/flows`, …) in the page. */
  go(path: string): Promise<unknown>;
  /** A request as the page's session, for arranging what the page then shows (no Origin, so no CSRF rule). */
  asSession(path: string, init?: { method?: string; json?: unknown; headers?: Record<string, string> }): Promise<Response>;
  stop(): Promise<void>;
}

/**
 * A real service (API serving the built console, a worker, PostgreSQL, Temporal) and a headless Chromium whose
 * page is signed in as a new workspace's owner: the start of every console area's test file
 * (test/console/<area>.test.ts), so each tests its own pages without walking through sign-up again.
 */
export async function startConsole(overrides: Partial<Config> = {}): Promise<ConsoleSession> {
  ensureConsoleBuilt();
  const { h, stop } = await startRunStack(overrides);
  const account = await signUp(h, { name: 'Console Tester' });
  const browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.url });
  const [name, value] = account.cookie.split('=');
  await context.addCookies([{ name, value, url: h.url, httpOnly: true, sameSite: 'Lax' }]);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return {
    h,
    browser,
    context,
    page,
    account,
    go: (path) => page.goto(`${h.url}/console${path}`),
    asSession: (path, init = {}) =>
      h.request(path, {
        method: init.method ?? 'GET',
        headers: { cookie: account.cookie, ...init.headers },
        json: init.json,
      }),
    async stop() {
      await browser.close();
      await stop();
    },
  };
}
