import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { api, ApiError, setWorkspaceId } from './api';
import { areas, DEFAULT_NAV_GROUP, type NavGroup } from './areas';
import { GlobalSearch } from './components/GlobalSearch';
import { MainNav } from './components/MainNav';
import { ErrorBox, Loading } from './components/States';
import './shell.css';
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
  const navId = useId();
  const [menuOpen, setMenuOpen] = useState(false);
  const main = useRef<HTMLElement>(null);
  const signOut = useMutation({
    mutationFn: () => api('/v1/console/auth/sign-out', { method: 'POST' }),
    onSuccess: () => {
      setWorkspaceId(null);
      client.clear();
      navigate('/sign-in', { replace: true });
    },
  });

  const core: { to: string; label: string; show: boolean; order: number; group: NavGroup }[] = [
    { to: '/inbox', label: 'Inbox', show: can('runs:read'), order: 10, group: 'Run' },
    { to: '/runs', label: 'Runs', show: can('runs:read'), order: 20, group: 'Run' },
    { to: '/agents', label: 'Agents', show: can('agents:read'), order: 30, group: 'Build' },
    { to: '/files', label: 'Files', show: can('files:read'), order: 40, group: 'Data' },
    { to: '/webhooks', label: 'Webhooks', show: can('webhooks:manage'), order: 50, group: 'Workspace' },
    { to: '/keys', label: 'API keys', show: can('keys:manage'), order: 60, group: 'Workspace' },
    { to: '/usage', label: 'Usage', show: can('usage:read'), order: 70, group: 'Workspace' },
  ];
  const links = [
    ...core,
    ...areas.flatMap((a) =>
      a.links.map((l) => ({
        to: l.to,
        label: l.label,
        show: can(l.scope),
        order: l.order,
        group: l.group ?? DEFAULT_NAV_GROUP,
      })),
    ),
  ].sort((a, b) => a.order - b.order);
  // A page change moves focus to the page, so keyboard and screen-reader users start at its heading,
  // and names the page in the window's title; on a phone it folds the menu away again.
  useEffect(() => {
    setMenuOpen(false);
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
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls={navId}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
        {can('runs:read') ? <GlobalSearch /> : null}
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
      </header>
      {!me.user.emailVerified ? (
        <div className="banner" role="status">
          Your e-mail address is not verified yet. Until you follow the link we sent to <strong>{me.user.email}</strong>
          , you may create at most {settings.unverifiedRunLimit} runs.
        </div>
      ) : null}
      <ErrorBox error={signOut.error} title="Could not sign out" />
      <div className="shell">
        <MainNav id={navId} links={links.filter((l) => l.show)} open={menuOpen} />
        <main id="main" ref={main} tabIndex={-1}>
          <Outlet key={workspace.id} />
        </main>
      </div>
    </>
  );
}
