import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

const ROOT = path.resolve(__dirname, '../..');

/** The system's Chromium (Debian's `chromium`, installed by scripts/test.sh): playwright never downloads one. */
export function chromiumPath(): string {
  const candidates = [process.env.SVC_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
  const found = candidates.find((p) => existsSync(p!));
  if (!found) throw new Error('no Chromium: install it with `apt-get install -y chromium` (scripts/test.sh does)');
  return found!;
}

export async function launch(): Promise<Browser> {
  // --no-sandbox: tests run as root in a container, where Chromium's sandbox cannot start.
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-gpu'] });
}

/** The console's build, made here only when scripts/test.sh has not made it (a targeted jest run). */
export function ensureConsoleBuilt(): void {
  if (existsSync(path.join(ROOT, 'console/dist/index.html'))) return;
  execFileSync('npm', ['--prefix', path.join(ROOT, 'console'), 'run', 'build'], { stdio: 'inherit' });
}

export const SCREENSHOTS = path.resolve(process.env.SVC_DATA_DIR ?? path.join(ROOT, '.data/test'), 'screenshots');

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** axe-core's violations of serious or critical impact on the page as it is now. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // expressions as strings: they run in the page, whose DOM types this Node project does not compile against
  if (!(await page.evaluate('"axe" in window'))) await page.addScriptTag({ content: AXE });
  const result = (await page.evaluate('axe.run(document)')) as { violations: AxeViolation[] };
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** The elements that reach past the right edge of the window (what makes a phone scroll sideways). */
const OVERFLOW = `(() => {
  if (document.documentElement.scrollWidth <= window.innerWidth) return [];
  return [...document.querySelectorAll('body *')]
    .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
    .slice(0, 5)
    .map((el) => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).replace(/ /g, '.') : '') + ' ' + Math.round(el.getBoundingClientRect().right) + 'px');
})()`;

/**
 * Checks the page a person sees, at desktop width and at 375 px: a screenshot of each under
 * `.data/test/screenshots`, no serious or critical axe-core violation, nothing wider than a phone.
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  const violations = await seriousViolations(page);
  expect(
    violations.map(
      (v) => `${name}: ${v.id} (${v.impact}) ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`,
    ),
  ).toEqual([]);

  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForTimeout(150);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-375.png`), fullPage: true });
  const overflow = await page.evaluate(OVERFLOW);
  expect({ page: name, overflow }).toEqual({ page: name, overflow: [] });
  const narrow = await seriousViolations(page);
  expect(narrow.map((v) => `${name}@375: ${v.id} (${v.impact}) ${v.help}`)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });
}
