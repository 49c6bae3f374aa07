import { Run } from '../../db/entities/Run';
import { createToolRegistry } from '../../domain/tools/registry';
import { registerCalendarTools } from '../../domain/phone/calendarTools';
import { bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { call, createPhoneAgent } from './helpers';

type Headers = Record<string, string>;

// The booking calendar: weekly hours, free slots, bookings through the calendar tools, one booking per
// slot under concurrency (docs/api/phone.md#booking-calendar).
describe('phone booking calendar', () => {
  let h: Harness;
  let owner: Account;
  let manager: Headers;
  let reader: Headers;
  let other: Headers;
  beforeAll(async () => {
    h = await startApi();
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    manager = bearer(await createKey(h, owner, ['phone:read', 'phone:manage', 'agents:read', 'agents:write']));
    reader = bearer(await createKey(h, owner, ['phone:read']));
    const stranger = await signUp(h);
    other = bearer(await createKey(h, stranger, ['phone:read', 'phone:manage']));
  });
  afterAll(() => h.close());

  // Monday 7 January 2030; Berlin is UTC+1 in winter
  const week = {
    timezone: 'Europe/Berlin',
    weeklyHours: [{ day: 'mon', start: '09:00', end: '12:00' }],
    slotMinutes: 60,
  };
  const monday = '/v1/phone/calendar?from=2030-01-07&to=2030-01-07';
  const slots = [
    { start: '2030-01-07T08:00:00.000Z', end: '2030-01-07T09:00:00.000Z' },
    { start: '2030-01-07T09:00:00.000Z', end: '2030-01-07T10:00:00.000Z' },
    { start: '2030-01-07T10:00:00.000Z', end: '2030-01-07T11:00:00.000Z' },
  ];

  /** Runs of a phone-booking agent, as the tools see their caller. */
  async function runsOf(n: number): Promise<string[]> {
    const agent = await createPhoneAgent(h, manager, { presetId: 'phone-booking' });
    const em = h.orm.em.fork();
    const runs = Array.from({ length: n }, () => new Run(owner.workspaceId, agent.id, 1, {}, {}));
    await em.persist(runs).flush();
    return runs.map((r) => r.id);
  }

  it('starts empty, takes weekly hours and shows their slots in the calendar timezone', async () => {
    const fresh = await signUp(h);
    const key = bearer(await createKey(h, fresh, ['phone:read']));
    expect(await ok(call(h, 'GET', '/v1/phone/calendar', key), 200)).toEqual({
      timezone: 'UTC',
      weeklyHours: [],
      slotMinutes: 30,
      slots: [],
      bookings: [],
    });
    const put = await ok(call(h, 'PUT', '/v1/phone/calendar', manager, week), 200);
    expect(put).toMatchObject(week);
    expect(await ok(call(h, 'GET', monday, reader), 200)).toEqual({ ...week, slots, bookings: [] });
    // Tuesday has no hours
    expect((await ok(call(h, 'GET', '/v1/phone/calendar?from=2030-01-08&to=2030-01-08', reader), 200)).slots).toEqual(
      [],
    );
    await error(call(h, 'PUT', '/v1/phone/calendar', reader, week), 403, 'forbidden');
  });

  it('refuses bad hours and ranges with 400', async () => {
    for (const body of [
      { ...week, timezone: 'Mars/Olympus' },
      { ...week, weeklyHours: [{ day: 'mon', start: '12:00', end: '09:00' }] },
      { ...week, weeklyHours: [{ day: 'monday', start: '09:00', end: '12:00' }] },
      { ...week, weeklyHours: [{ day: 'mon', start: '9:00', end: '12:00' }] },
      { ...week, slotMinutes: 0 },
      { timezone: 'UTC' },
    ]) {
      await error(call(h, 'PUT', '/v1/phone/calendar', manager, body), 400, 'validation_error');
    }
    await error(call(h, 'GET', '/v1/phone/calendar?from=2030-01-08&to=2030-01-07', reader), 400, 'validation_error');
    await error(call(h, 'GET', '/v1/phone/calendar?from=2030-01-01&to=2030-06-01', reader), 400, 'validation_error');
    await error(call(h, 'GET', '/v1/phone/calendar?from=2030-13-01', reader), 400, 'validation_error');
  });

  it('books a slot once under parallel calendar_book calls; the others get calendar.slot_taken', async () => {
    await ok(call(h, 'PUT', '/v1/phone/calendar', manager, week), 200);
    const tools = createToolRegistry({ allowPrivate: false });
    registerCalendarTools(tools, { orm: h.orm });
    const runIds = await runsOf(8);
    const free = JSON.parse(
      await tools.run(
        { id: 't0', name: 'calendar_free_slots', args: { from: '2030-01-07', to: '2030-01-07' } },
        undefined,
        {
          runId: runIds[0],
        },
      ),
    );
    expect(free).toEqual({ slots });
    const results = await Promise.all(
      runIds.map(async (runId, i) =>
        JSON.parse(
          await tools.run(
            {
              id: `t${i}`,
              name: 'calendar_book',
              args: { start: slots[1].start, name: `Caller ${i}`, phone: '+14155550123' },
            },
            undefined,
            { runId },
          ),
        ),
      ),
    );
    const booked = results.filter((r) => r.bookingId);
    expect(booked).toHaveLength(1);
    expect(results.filter((r) => r.error?.code === 'calendar.slot_taken')).toHaveLength(7);
    // the same run asking again (a retried tool call) finds its own booking
    const winner = runIds[results.findIndex((r) => r.bookingId)];
    const again = JSON.parse(
      await tools.run({ id: 'r', name: 'calendar_book', args: { start: slots[1].start } }, undefined, {
        runId: winner,
      }),
    );
    expect(again.bookingId).toBe(booked[0].bookingId);
    const cal = await ok(call(h, 'GET', monday, reader), 200);
    expect(cal.slots).toEqual([slots[0], slots[2]]);
    expect(cal.bookings).toEqual([
      {
        id: booked[0].bookingId,
        ...slots[1],
        name: expect.stringMatching(/^Caller /),
        phone: '+14155550123',
        callId: null,
      },
    ]);
    // a time that is no slot is refused as a tool error
    const off = JSON.parse(
      await tools.run({ id: 'o', name: 'calendar_book', args: { start: '2030-01-07T08:30:00Z' } }, undefined, {
        runId: runIds[1],
      }),
    );
    expect(off.error.code).toBe('calendar.invalid_slot');
    await expect(
      tools.run({ id: 'b', name: 'calendar_book', args: { start: 'tomorrow' } }, undefined, { runId: runIds[1] }),
    ).rejects.toThrow(/ISO timestamp/);

    await error(call(h, 'DELETE', `/v1/phone/calendar/bookings/${booked[0].bookingId}`, other), 404, 'not_found');
    await error(call(h, 'DELETE', `/v1/phone/calendar/bookings/${booked[0].bookingId}`, reader), 403, 'forbidden');
    expect((await call(h, 'DELETE', `/v1/phone/calendar/bookings/${booked[0].bookingId}`, manager)).status).toBe(204);
    await error(call(h, 'DELETE', `/v1/phone/calendar/bookings/${booked[0].bookingId}`, manager), 404, 'not_found');
    expect((await ok(call(h, 'GET', monday, reader), 200)).slots).toEqual(slots);
  });
});
