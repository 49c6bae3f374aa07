import { randomUUID } from 'node:crypto';
import { HOOK_RATE_PER_MIN } from '../../api/hookRateLimit';
import { freshRateWindow } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';

// Phone and WhatsApp hooks are limited per number / account like flow hooks per token (docs/api/limits.md).
describe('hook rate limits', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApi();
  });
  afterAll(() => h.close());

  it.each([
    ['phone', (id: string) => h.request(`/hooks/phone/${id}/some-token`, { method: 'POST', body: 'a=b', headers: form })],
    ['whatsapp', (id: string) => h.request(`/hooks/whatsapp/${id}`, { method: 'POST', json: {} })],
  ])('answers 429 past the limit of one %s hook, and not for another', async (_kind, hit) => {
    await freshRateWindow(30);
    const id = randomUUID();
    const answers = await Promise.all(Array.from({ length: HOOK_RATE_PER_MIN + 3 }, () => hit(id)));
    const limited = answers.filter((r) => r.status === 429);
    expect(limited).toHaveLength(3);
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await limited[0].json()).error.code).toBe('rate_limited');
    expect((await hit(randomUUID())).status).not.toBe(429);
  });
});

const form = { 'content-type': 'application/x-www-form-urlencoded' };
