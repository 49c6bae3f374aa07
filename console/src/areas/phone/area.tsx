import type { ConsoleArea } from '../../areas';

/** Phone: numbers and their agents, calls with transcripts, the booking calendar (docs/api/phone.md). */
export const area: ConsoleArea = {
  links: [{ to: '/phone', label: 'Phone', scope: 'phone:read', order: 165 }],
  routes: [
    { path: 'phone', lazy: () => import('./NumbersPage').then((m) => ({ Component: m.NumbersPage })) },
    { path: 'phone/calls', lazy: () => import('./CallsPage').then((m) => ({ Component: m.CallsPage })) },
    { path: 'phone/calls/:id', lazy: () => import('./CallPage').then((m) => ({ Component: m.CallPage })) },
    { path: 'phone/calendar', lazy: () => import('./CalendarPage').then((m) => ({ Component: m.CalendarPage })) },
  ],
};
