import type { WhatsAppAccount } from '@svc/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../api';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { CopyButton } from '../../components/ShownOnce';
import { ErrorBox } from '../../components/States';
import { when } from '../../components/format';
import { useAgentNames } from '../../hooks';
import { useSession } from '../../session';

/** One connected number: its agent, the webhook URL to give Meta, removal after confirmation. */
export function AccountRow({ account: a }: { account: WhatsAppAccount }) {
  const { can } = useSession();
  const client = useQueryClient();
  const agentName = useAgentNames();
  const remove = useMutation({
    mutationFn: () => api(`/v1/whatsapp/accounts/${a.id}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['whatsapp'] }),
  });
  return (
    <li className="card" data-testid="wa-account">
      <h3 className="card-title">Number ID {a.phoneNumberId}</h3>
      <p className="small">
        Answered by <Link to={`/agents/${a.agentId}`}>{agentName(a.agentId)}</Link> · connected {when(a.createdAt)}
        {a.template ? ` · template ${a.template.name} (${a.template.language})` : ''}
      </p>
      <p className="small">
        Webhook URL: <code className="wrap">{a.webhookUrl}</code>{' '}
        <CopyButton value={a.webhookUrl} label="the webhook URL" />
      </p>
      {can('whatsapp:manage') ? (
        <ConfirmDelete
          label="Remove"
          question="Remove this number? Its webhook stops at once and its active conversations end; they stay readable."
          confirmLabel={`Yes, remove number ${a.phoneNumberId}`}
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      ) : null}
      <ErrorBox error={remove.error} title="Could not remove" />
    </li>
  );
}
