import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { api, ApiError, setWorkspaceId } from './api';
import { areas } from './areas';
import { ErrorBox, Loading } from './components/States';
import { meQuery, SessionProvider, useSession, useSettings } from './session';

/** Signed-in pages: the header (workspace switcher, navigation, sign-out), the unverified banner, the page. */
export function Layout() {
  const me = useQuery(meQuery);
  const settings = useSettings();
  const location = useLocation();
  if (me.isPending || settings.isPending) return <Loading what="Loading the console" />;
  if (me.error instanceof ApiError && me.error.status === 401) {
    return <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />;
  }
  if (me.error || settings.error)
    return <ErrorBox error={me.error ?? settings.error} title="Could not load the console" />;
  if (me.data.workspaces.length === 0) return <ErrorBox error={new Error('You are not a member of any workspace')} />;
  return (
    <SessionProvider me={me.data} settings={settings.data}>
      <Shell />
    </SessionProvider>
  );
}

function Shell() {
  const { me, workspace, can, switchWorkspace, settings } = useSession();
  const client = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const selectId = useId();
  const main = useRef<HTMLElement>(null);
  const signOut = useMutation({
    mutationFn: () => api('/v1/console/auth/sign-out', { method: 'POST' }),
    onSuccess: () => {
      setWorkspaceId(null);
      client.clear();
      navigate('/sign-in', { replace: true });
    },
  });

  const core = [
    { to: '/inbox', label: 'Inbox', show: can('runs:read'), order: 10 },
    { to: '/runs', label: 'Runs', show: can('runs:read'), order: 20 },
    { to: '/agents', label: 'Agents', show: can('agents:read'), order: 30 },
    { to: '/files', label: 'Files', show: can('files:read'), order: 40 },
    { to: '/webhooks', label: 'Webhooks', show: can('webhooks:manage'), order: 50 },
    { to: '/keys', label: 'API keys', show: can('keys:manage'), order: 60 },
    { to: '/usage', label: 'Usage', show: can('usage:read'), order: 70 },
  ];
  const links = [
    ...core,
    ...areas.flatMap((a) => a.links.map((l) => ({ to: l.to, label: l.label, show: can(l.scope), order: l.order }))),
  ].sort((a, b) => a.order - b.order);
  // A page change moves focus to the page, so keyboard and screen-reader users start at its heading,
  // and names the page in the window's title.
  useEffect(() => {
    main.current?.focus();
    const page = links.find((l) => location.pathname.startsWith(l.to))?.label;
    document.title = page ? `${page} · svc console` : 'svc console';
  }, [location.pathname]);

  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <div className="brand">svc console</div>
        <div className="workspace">
          {me.workspaces.length > 1 ? (
            <>
              <label htmlFor={selectId}>Workspace</label>
              <select id={selectId} value={workspace.id} onChange={(e) => switchWorkspace(e.target.value)}>
                {me.workspaces.map((w) => (
                  <option key={w.id} value={w.id}>
                    {w.name} ({w.role})
                  </option>
                ))}
              </select>
            </>
          ) : (
            <span>
              {workspace.name} <span className="muted">({workspace.role})</span>
            </span>
          )}
        </div>
        <div className="account">
          <span className="muted small">{me.user.email}</span>
          <button type="button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </button>
        </div>
        <nav aria-label="Main">
          <ul>
            {links
              .filter((l) => l.show)
              .map((l) => (
                <li key={l.to}>
                  <NavLink to={l.to}>{l.label}</NavLink>
                </li>
              ))}
          </ul>
        </nav>
      </header>
      {!me.user.emailVerified ? (
        <div className="banner" role="status">
          Your e-mail address is not verified yet. Until you follow the link we sent to <strong>{me.user.email}</strong>
          , you may create at most {settings.unverifiedRunLimit} runs.
        </div>
      ) : null}
      <ErrorBox error={signOut.error} title="Could not sign out" />
      <main id="main" ref={main} tabIndex={-1}>
        <Outlet key={workspace.id} />
      </main>
    </>
  );
}
