import type { FinanceCategory, FinanceTransaction } from '@svc/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api';
import { ErrorBox } from '../../components/States';

/** One transaction; its category is a select that saves on change (a person's choice outlasts the rules). */
export function TransactionRow({
  tx,
  categories,
  editable,
}: {
  tx: FinanceTransaction;
  categories: FinanceCategory[];
  editable: boolean;
}) {
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (categoryId: string | null) =>
      api<FinanceTransaction>(`/v1/finance/transactions/${tx.id}`, { method: 'PATCH', json: { categoryId } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['finance'] }),
  });
  const name = categories.find((c) => c.id === tx.categoryId)?.name ?? 'Uncategorised';
  return (
    <tr data-testid="transaction">
      <td>{tx.date}</td>
      <td className="wrap">
        {tx.description}
        {tx.counterparty ? <div className="small muted">{tx.counterparty}</div> : null}
      </td>
      <td className={`amount ${tx.amount.startsWith('-') ? 'invalid' : 'valid'}`}>
        {tx.amount} {tx.currency}
      </td>
      <td className="wrap">{tx.account}</td>
      <td>
        {editable ? (
          <>
            <select
              aria-label={`Category of ${tx.description} on ${tx.date}`}
              value={tx.categoryId ?? ''}
              disabled={save.isPending}
              onChange={(e) => save.mutate(e.target.value || null)}
            >
              <option value="">Uncategorised</option>
              {categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
            <ErrorBox error={save.error} title="Could not save" />
          </>
        ) : (
          name
        )}
      </td>
    </tr>
  );
}
