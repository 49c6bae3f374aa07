import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { api, setWorkspaceId } from '../api';
import { ErrorBox } from '../components/States';
import type { User, Workspace } from '../types';

interface AuthOut {
  user: User;
  workspace: Workspace;
}

function useAuth(path: string) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  return useMutation({
    mutationFn: (body: Record<string, string>) => api<AuthOut>(path, { method: 'POST', json: body }),
    onSuccess: (out) => {
      setWorkspaceId(out.workspace.id);
      client.clear();
      navigate(from && from !== '/sign-in' ? from : '/inbox', { replace: true });
    },
  });
}

function AuthFrame({ title, children }: { title: string; children: React.ReactNode }) {
  useEffect(() => {
    document.title = `${title} · svc console`;
  }, [title]);
  return (
    <main id="main" className="auth">
      <div className="brand">svc console</div>
      <h1>{title}</h1>
      {children}
    </main>
  );
}

export function SignInPage() {
  const signIn = useAuth('/v1/console/auth/sign-in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  return (
    <AuthFrame title="Sign in">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          signIn.mutate({ email, password });
        }}
      >
        <div className="field">
          <label htmlFor="email">E-mail</label>
          <input
            id="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="password">Password</label>
          <input
            id="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <ErrorBox error={signIn.error} title="Could not sign in" />
        <button className="primary" type="submit" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p>
        No account yet? <Link to="/sign-up">Sign up</Link>
      </p>
    </AuthFrame>
  );
}

export function SignUpPage() {
  const signUp = useAuth('/v1/console/auth/sign-up');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  return (
    <AuthFrame title="Sign up">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          signUp.mutate({ email, password, ...(name.trim() ? { name: name.trim() } : {}) });
        }}
      >
        <div className="field">
          <label htmlFor="name">Name (optional)</label>
          <input id="name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="email">E-mail</label>
          <input
            id="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="password">Password (at least 8 characters)</label>
          <input
            id="password"
            type="password"
            autoComplete="new-password"
            minLength={8}
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <ErrorBox error={signUp.error} title="Could not sign up" />
        <button className="primary" type="submit" disabled={signUp.isPending}>
          {signUp.isPending ? 'Creating your account…' : 'Create account'}
        </button>
      </form>
      <p>
        Already have an account? <Link to="/sign-in">Sign in</Link>
      </p>
    </AuthFrame>
  );
}
