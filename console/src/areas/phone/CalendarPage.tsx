import type { PhoneBooking, PhoneCalendar } from '@svc/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, qs } from '../../api';
import { Empty, ErrorBox, QueryState } from '../../components/States';
import { useSession } from '../../session';
import { PhoneTabs } from './PhoneTabs';
import { WeeklyHoursEditor } from './WeeklyHoursEditor';
import { addDays, dayTitle, isDay, mondayOf, today, wallClock } from './week';
import './calendar.css';

/** The booking calendar: a week of bookings and free slots, and the weekly hours that make the slots. */
export function CalendarPage() {
  const { can } = useSession();
  const [params, setParams] = useSearchParams();
  const asked = params.get('week');
  const monday = mondayOf(isDay(asked) ? asked : today());
  const sunday = addDays(monday, 6);
  const calendar = useQuery({
    queryKey: ['phone', 'calendar', monday],
    queryFn: () => api<PhoneCalendar>(`/v1/phone/calendar${qs({ from: monday, to: sunday })}`),
  });
  const go = (day: string) => setParams({ week: day });
  return (
    <section>
      <h1>Booking calendar</h1>
      <PhoneTabs />
      <div className="actions" role="group" aria-label="Week">
        <button type="button" onClick={() => go(addDays(monday, -7))}>
          Previous week
        </button>
        <button type="button" onClick={() => go(mondayOf(today()))}>
          This week
        </button>
        <button type="button" onClick={() => go(addDays(monday, 7))}>
          Next week
        </button>
      </div>
      <QueryState query={calendar} what="the calendar">
        {(c) => (
          <>
            <h2>
              Week of {dayTitle(monday)} to {dayTitle(sunday)} <span className="muted small">({c.timezone})</span>
            </h2>
            {c.weeklyHours.length === 0 ? <Empty>No weekly hours yet, so no slots: set them below.</Empty> : null}
            <WeekGrid calendar={c} monday={monday} canCancel={can('phone:manage')} />
            {can('phone:manage') ? (
              <WeeklyHoursEditor key={JSON.stringify([c.timezone, c.weeklyHours, c.slotMinutes])} calendar={c} />
            ) : null}
          </>
        )}
      </QueryState>
    </section>
  );
}

function WeekGrid({ calendar, monday, canCancel }: { calendar: PhoneCalendar; monday: string; canCancel: boolean }) {
  const days = Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  const tz = calendar.timezone;
  const on = <T extends { start: string }>(items: T[], day: string) =>
    items.filter((s) => wallClock(s.start, tz).day === day).sort((a, b) => a.start.localeCompare(b.start));
  return (
    <div className="week">
      {days.map((day) => {
        const bookings = on(calendar.bookings, day);
        const free = on(calendar.slots, day);
        return (
          <section key={day} className="week-day" aria-labelledby={`day-${day}`} data-testid={`day-${day}`}>
            <h3 id={`day-${day}`}>{dayTitle(day)}</h3>
            {bookings.length === 0 && free.length === 0 ? <p className="small muted">Closed</p> : null}
            {bookings.length > 0 ? (
              <ul className="week-bookings" aria-label={`Bookings on ${dayTitle(day)}`}>
                {bookings.map((b) => (
                  <BookingItem key={b.id} booking={b} timezone={tz} canCancel={canCancel} />
                ))}
              </ul>
            ) : null}
            {free.length > 0 ? (
              <p className="small">
                {free.length} free slot{free.length === 1 ? '' : 's'}: {wallClock(free[0].start, tz).time}
                {free.length > 1 ? ` to ${wallClock(free[free.length - 1].start, tz).time}` : ''}
              </p>
            ) : null}
          </section>
        );
      })}
    </div>
  );
}

function BookingItem({
  booking: b,
  timezone,
  canCancel,
}: {
  booking: PhoneBooking;
  timezone: string;
  canCancel: boolean;
}) {
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const cancel = useMutation({
    mutationFn: () => api(`/v1/phone/calendar/bookings/${b.id}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['phone', 'calendar'] }),
  });
  const span = `${wallClock(b.start, timezone).time}–${wallClock(b.end, timezone).time}`;
  return (
    <li className="week-booking" data-testid="booking">
      <strong>{span}</strong> {b.name ?? 'Unnamed'}
      {b.phone ? <span className="small"> · {b.phone}</span> : null}
      {b.callId ? (
        <div className="small">
          <Link to={`/phone/calls/${b.callId}`}>Booked during a call</Link>
        </div>
      ) : null}
      {canCancel ? (
        confirming ? (
          <div className="actions">
            <button className="danger" type="button" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
              Yes, cancel {span}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </div>
        ) : (
          <div>
            <button type="button" className="link" onClick={() => setConfirming(true)}>
              Cancel booking at {span}
            </button>
          </div>
        )
      ) : null}
      <ErrorBox error={cancel.error} title="Could not cancel" />
    </li>
  );
}
