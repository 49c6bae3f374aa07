import type { PhoneCalendar, WeekDay, WeeklyHours } from '@svc/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api';
import { IssueList } from '../../components/IssueList';
import { ErrorBox } from '../../components/States';
import { DAYS } from './week';

const DAY_NAMES: Record<WeekDay, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

const zones = (): string[] => {
  try {
    return ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];
  } catch {
    return ['UTC'];
  }
};

/** The calendar's timezone, slot length and opening hours per day (several spans a day allowed). */
export function WeeklyHoursEditor({ calendar }: { calendar: PhoneCalendar }) {
  const client = useQueryClient();
  const [timezone, setTimezone] = useState(calendar.timezone);
  const [slotMinutes, setSlotMinutes] = useState(String(calendar.slotMinutes));
  const [hours, setHours] = useState<WeeklyHours[]>(calendar.weeklyHours);
  const save = useMutation({
    mutationFn: () =>
      api<PhoneCalendar>('/v1/phone/calendar', {
        method: 'PUT',
        json: { timezone, weeklyHours: hours, slotMinutes: Number(slotMinutes) },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['phone', 'calendar'] }),
  });
  const set = (i: number, patch: Partial<WeeklyHours>) =>
    setHours(hours.map((h, n) => (n === i ? { ...h, ...patch } : h)));
  const nextDay = (): WeekDay => DAYS.find((d) => !hours.some((h) => h.day === d)) ?? 'mon';
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <h2>Weekly hours</h2>
      <p className="small">Slots start at each opening time and must end within the hours. Bookings made stay.</p>
      <div className="row">
        <div className="field">
          <label htmlFor="cal-tz">Timezone</label>
          <select id="cal-tz" value={timezone} onChange={(e) => setTimezone(e.target.value)}>
            {zones().map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="cal-slot">Slot length (minutes)</label>
          <input
            id="cal-slot"
            type="number"
            min={5}
            max={480}
            required
            value={slotMinutes}
            onChange={(e) => setSlotMinutes(e.target.value)}
          />
        </div>
      </div>
      <ol className="list" aria-label="Opening hours">
        {hours.map((h, i) => (
          <li key={i} className="row hours-row">
            <div className="field">
              <label htmlFor={`hours-day-${i}`}>Day {i + 1}</label>
              <select id={`hours-day-${i}`} value={h.day} onChange={(e) => set(i, { day: e.target.value as WeekDay })}>
                {DAYS.map((d) => (
                  <option key={d} value={d}>
                    {DAY_NAMES[d]}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`hours-start-${i}`}>Opens (day {i + 1})</label>
              <input
                id={`hours-start-${i}`}
                type="time"
                required
                value={h.start}
                onChange={(e) => set(i, { start: e.target.value })}
              />
            </div>
            <div className="field">
              <label htmlFor={`hours-end-${i}`}>Closes (day {i + 1})</label>
              <input
                id={`hours-end-${i}`}
                type="time"
                required
                value={h.end}
                onChange={(e) => set(i, { end: e.target.value })}
              />
            </div>
            <button type="button" className="danger" onClick={() => setHours(hours.filter((_, n) => n !== i))}>
              Remove day {i + 1}
            </button>
          </li>
        ))}
      </ol>
      <div className="actions">
        <button type="button" onClick={() => setHours([...hours, { day: nextDay(), start: '09:00', end: '17:00' }])}>
          Add opening hours
        </button>
        <button className="primary" type="submit" disabled={save.isPending}>
          Save hours
        </button>
      </div>
      <ErrorBox error={save.error} title="Could not save the hours" />
      <IssueList error={save.error} />
      {save.isSuccess ? (
        <p className="notice" role="status">
          Hours saved.
        </p>
      ) : null}
    </form>
  );
}
