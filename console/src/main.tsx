import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { ApiError } from './api';
import { areas } from './areas';
import { Layout } from './Layout';
import { AgentDetailPage } from './pages/AgentDetail';
import { AgentsPage } from './pages/Agents';
import { FilesPage } from './pages/Files';
import { InboxPage } from './pages/Inbox';
import { KeysPage } from './pages/Keys';
import { NotFoundPage } from './pages/NotFound';
import { RunDetailPage } from './pages/RunDetail';
import { RunsPage } from './pages/Runs';
import { SignInPage, SignUpPage } from './pages/Auth';
import { VerifyEmailPage } from './pages/VerifyEmail';
import { WebhooksPage } from './pages/Webhooks';
import { Loading } from './components/States';
import './styles.css';

// The chart library is most of the bundle's weight: only the usage page loads it.
const UsagePage = lazy(() => import('./pages/Usage').then((m) => ({ default: m.UsagePage })));

const client = new QueryClient({
  defaultOptions: {
    queries: {
      // a 4xx will not change by asking again, except a rate limit (429); a network failure or 5xx may
      retry: (n, err) =>
        n < 2 && !(err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 429),
      retryDelay: (n, err) => (err instanceof ApiError && err.status === 429 ? 10_000 : Math.min(1000 * 2 ** n, 8000)),
      refetchOnWindowFocus: true,
    },
  },
});

// A session that ended (sign-out elsewhere, expiry) shows as a 401 on any request: back to sign-in.
client.getQueryCache().subscribe((event) => {
  const err = event.query.state.error;
  if (event.type === 'updated' && err instanceof ApiError && err.status === 401 && event.query.queryKey[0] !== 'me') {
    void client.invalidateQueries({ queryKey: ['me'] });
  }
});

const router = createBrowserRouter(
  [
    { path: '/sign-in', element: <SignInPage /> },
    { path: '/sign-up', element: <SignUpPage /> },
    { path: '/verify-email', element: <VerifyEmailPage /> },
    {
      path: '/',
      element: <Layout />,
      children: [
        { index: true, element: <Navigate to="/inbox" replace /> },
        { path: 'inbox', element: <InboxPage /> },
        { path: 'runs', element: <RunsPage /> },
        { path: 'runs/:id', element: <RunDetailPage /> },
        { path: 'agents', element: <AgentsPage /> },
        { path: 'agents/:id', element: <AgentDetailPage /> },
        { path: 'files', element: <FilesPage /> },
        { path: 'webhooks', element: <WebhooksPage /> },
        { path: 'keys', element: <KeysPage /> },
        {
          path: 'usage',
          element: (
            <Suspense fallback={<Loading what="Loading the usage page" />}>
              <UsagePage />
            </Suspense>
          ),
        },
        // every other part of the product: console/src/areas/<name>/area.tsx
        ...areas.flatMap((a) => a.routes),
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ],
  { basename: '/console' },
);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
