import type { z } from 'zod';
import { deleteBooking, getCalendar, putCalendar } from '../../../domain/phone/calendar';
import { bookingParams, calendarOut, calendarQuery, putCalendarBody } from '../../schemas/phone';
import { defineRoute, type RouteDef } from '../route';

/** The booking calendar phone agents book on (docs/api/phone.md#booking-calendar). */
export function phoneCalendarRoutes(): RouteDef[] {
  return [
    defineRoute<undefined, z.infer<typeof calendarQuery>>({
      method: 'GET',
      path: '/v1/phone/calendar',
      summary: 'The calendar, its free slots and its bookings on the days asked (the coming week by default)',
      tag: 'phone',
      access: { auth: 'any', scope: 'phone:read' },
      query: calendarQuery,
      responses: { 200: { description: 'The calendar', schema: calendarOut } },
      async handler(ctx, { query }) {
        ctx.body = await getCalendar(ctx.state.em, ctx.state.identity!, query);
      },
    }),
    defineRoute<z.infer<typeof putCalendarBody>>({
      method: 'PUT',
      path: '/v1/phone/calendar',
      summary: 'Set the timezone, weekly hours and slot length',
      tag: 'phone',
      access: { auth: 'any', scope: 'phone:manage' },
      body: putCalendarBody,
      responses: { 200: { description: 'The calendar', schema: calendarOut } },
      async handler(ctx, { body }) {
        ctx.body = await putCalendar(ctx.state.em, ctx.state.identity!, body);
      },
    }),
    defineRoute<undefined, undefined, z.infer<typeof bookingParams>>({
      method: 'DELETE',
      path: '/v1/phone/calendar/bookings/:id',
      summary: 'Cancel a booking, freeing its slot',
      tag: 'phone',
      access: { auth: 'any', scope: 'phone:manage' },
      params: bookingParams,
      responses: { 204: { description: 'Cancelled' } },
      async handler(ctx, { params }) {
        await deleteBooking(ctx.state.em, ctx.state.identity!, params.id);
        ctx.status = 204;
      },
    }),
  ];
}
