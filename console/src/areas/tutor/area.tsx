import type { ConsoleArea } from '../../areas';

/** Tutor sessions: a conversation with an agent on a topic, one run per message (docs/api/tutor.md). */
export const area: ConsoleArea = {
  links: [{ to: '/tutor', label: 'Tutor', scope: 'agents:read', order: 175 }],
  routes: [
    { path: 'tutor', lazy: () => import('./TutorPage').then((m) => ({ Component: m.TutorPage })) },
    { path: 'tutor/:id', lazy: () => import('./SessionPage').then((m) => ({ Component: m.SessionPage })) },
  ],
};
