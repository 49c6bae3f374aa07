import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api';
import { ErrorBox, Loading } from '../components/States';
import type { User } from '../types';

/** Where the sign-up mail's link lands: confirms the token once, then says so. */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const client = useQueryClient();
  const verify = useMutation({
    mutationFn: () => api<{ user: User }>('/v1/console/auth/verify-email', { method: 'POST', json: { token } }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['me'] }),
  });
  const sent = useRef(false);
  useEffect(() => {
    if (token && !sent.current) {
      sent.current = true;
      verify.mutate();
    }
  }, [token, verify]);
  return (
    <main id="main" className="auth">
      <div className="brand">svc console</div>
      <h1>Verify your e-mail</h1>
      {!token ? (
        <p role="alert">This link has no token. Open the link from the e-mail we sent you.</p>
      ) : verify.isSuccess ? (
        <p role="status">
          Thank you: <strong>{verify.data.user.email}</strong> is verified.
        </p>
      ) : verify.error ? (
        <ErrorBox error={verify.error} title="Could not verify the address" />
      ) : (
        <Loading what="Verifying" />
      )}
      <p>
        <Link to="/inbox">Go to the console</Link>
      </p>
    </main>
  );
}
