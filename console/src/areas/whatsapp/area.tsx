import type { ConsoleArea } from '../../areas';

/** WhatsApp: Cloud API numbers answered by agents, and their conversations (docs/api/whatsapp.md). */
export const area: ConsoleArea = {
  links: [{ to: '/whatsapp', label: 'WhatsApp', scope: 'whatsapp:read', order: 170 }],
  routes: [
    { path: 'whatsapp', lazy: () => import('./WhatsAppPage').then((m) => ({ Component: m.WhatsAppPage })) },
    {
      path: 'whatsapp/conversations/:id',
      lazy: () => import('./ThreadPage').then((m) => ({ Component: m.ThreadPage })),
    },
  ],
};
