import type { FinanceCsvMapping, FinanceImport } from '@svc/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api';
import { ErrorBox } from '../../components/States';
import { when } from '../../components/format';
import { useSession } from '../../session';
import { uploadFile } from '../../upload';
import { guessColumn, previewCsv, type CsvPreview } from './csvPreview';
import { FinanceTabs } from './FinanceTabs';
import { ImportResult } from './ImportResult';
import { MappingForm, type MappingState } from './MappingForm';

const initialMapping = (p: CsvPreview): MappingState => ({
  date: guessColumn(p.header, ['date', 'datum', 'booked']),
  description: guessColumn(p.header, ['description', 'memo', 'details', 'text', 'payee']),
  amountMode: guessColumn(p.header, ['debit']) && guessColumn(p.header, ['credit']) ? 'split' : 'single',
  amount: guessColumn(p.header, ['amount', 'betrag', 'value']),
  debit: guessColumn(p.header, ['debit']),
  credit: guessColumn(p.header, ['credit']),
  currency: guessColumn(p.header, ['currency', 'ccy']),
  counterparty: guessColumn(p.header, ['counterparty', 'payee', 'merchant']),
  dateFormat: 'YYYY-MM-DD',
  decimal: p.separator === ';' ? ',' : '.',
  defaultCurrency: '',
  negate: false,
});

function toMapping(m: MappingState): FinanceCsvMapping {
  return {
    date: m.date,
    description: m.description,
    ...(m.amountMode === 'single' ? { amount: m.amount } : { debit: m.debit, credit: m.credit }),
    ...(m.currency ? { currency: m.currency } : {}),
    ...(m.counterparty ? { counterparty: m.counterparty } : {}),
    dateFormat: m.dateFormat,
    decimal: m.decimal,
    ...(m.defaultCurrency ? { defaultCurrency: m.defaultCurrency } : {}),
    ...(m.negate ? { negate: true } : {}),
  };
}

/**
 * The import wizard: pick a bank export, map its columns while seeing its first rows, import, and see the
 * service's answer line by line (new, duplicates, errors). The service has no dry run, so the preview is
 * the browser's reading of the file and the result is the import itself (docs/api/finance.md).
 */
export function ImportPage() {
  const { can } = useSession();
  const client = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<'csv' | 'ofx'>('csv');
  const [preview, setPreview] = useState<CsvPreview | null>(null);
  const [mapping, setMapping] = useState<MappingState | null>(null);
  const [account, setAccount] = useState('');
  const [progress, setProgress] = useState(0);
  const imports = useQuery({
    queryKey: ['finance', 'imports'],
    queryFn: () => api<{ imports: FinanceImport[] }>('/v1/finance/imports?limit=10'),
  });
  const run = useMutation({
    mutationFn: async () => {
      const uploaded = await uploadFile(file!, null, setProgress);
      return api<FinanceImport>('/v1/finance/imports', {
        method: 'POST',
        json: {
          fileId: uploaded.id,
          format,
          ...(account.trim() ? { account: account.trim() } : {}),
          ...(format === 'csv' && mapping ? { mapping: toMapping(mapping) } : {}),
        },
      });
    },
    onSuccess: () => void client.invalidateQueries({ queryKey: ['finance'] }),
  });

  const pick = async (f: File | null) => {
    run.reset();
    setProgress(0);
    setFile(f);
    setPreview(null);
    setMapping(null);
    if (!f) return;
    const isOfx = /\.(?:ofx|qfx)$/i.test(f.name);
    setFormat(isOfx ? 'ofx' : 'csv');
    if (isOfx) return;
    // the first 64 KiB hold the header and the preview rows of any bank export
    const p = previewCsv(await f.slice(0, 65_536).text());
    setPreview(p);
    setMapping(initialMapping(p));
  };

  if (!can('finance:write')) {
    return (
      <section>
        <h1>Import a bank export</h1>
        <FinanceTabs />
        <p>Your role may read the finances but not import.</p>
      </section>
    );
  }
  const mappingReady =
    format === 'ofx' ||
    (mapping !== null &&
      mapping.date !== '' &&
      mapping.description !== '' &&
      (mapping.amountMode === 'single' ? mapping.amount !== '' : mapping.debit !== '' && mapping.credit !== ''));
  return (
    <section>
      <h1>Import a bank export</h1>
      <FinanceTabs />
      <form
        className="panel"
        onSubmit={(e) => {
          e.preventDefault();
          run.mutate();
        }}
      >
        <h2>1. Pick the file</h2>
        <div className="row">
          <div className="field">
            <label htmlFor="import-file">Bank export (CSV, OFX or QFX)</label>
            <input
              id="import-file"
              type="file"
              accept=".csv,.txt,.ofx,.qfx,text/csv"
              onChange={(e) => void pick(e.target.files?.[0] ?? null)}
            />
          </div>
          <div className="field">
            <label htmlFor="import-format">Format</label>
            <select id="import-format" value={format} onChange={(e) => setFormat(e.target.value as 'csv' | 'ofx')}>
              <option value="csv">CSV</option>
              <option value="ofx">OFX / QFX</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="import-account">Account (optional)</label>
            <input id="import-account" value={account} onChange={(e) => setAccount(e.target.value)} maxLength={200} />
          </div>
        </div>
        {format === 'csv' && preview && mapping ? (
          <>
            <h2>2. Map the columns</h2>
            <MappingForm preview={preview} value={mapping} onChange={setMapping} />
          </>
        ) : null}
        {format === 'csv' && file && preview && preview.header.length === 0 ? (
          <ErrorBox error={new Error('The file has no header line')} title="Cannot read the file" />
        ) : null}
        <h2>{format === 'csv' ? '3.' : '2.'} Import</h2>
        {run.isPending ? (
          <p role="status">
            <label htmlFor="import-progress">Uploading</label>{' '}
            <progress id="import-progress" max={1} value={progress} />
          </p>
        ) : null}
        <ErrorBox error={run.error} title="Could not import" />
        <button className="primary" type="submit" disabled={!file || !mappingReady || run.isPending}>
          Import
        </button>
      </form>
      {run.data ? <ImportResult result={run.data} /> : null}
      <h2>Recent imports</h2>
      {imports.data && imports.data.imports.length > 0 ? (
        <ul className="list">
          {imports.data.imports.map((i) => (
            <li key={i.id}>
              {when(i.createdAt)} · {i.format.toUpperCase()} · account {i.account} · {i.imported} imported,{' '}
              {i.duplicates} duplicates, {i.errors.length} errors
            </li>
          ))}
        </ul>
      ) : imports.error ? (
        <ErrorBox error={imports.error} title="Could not load the imports" />
      ) : imports.isPending ? (
        <p className="muted">Loading the imports…</p>
      ) : (
        <p className="empty">No imports yet.</p>
      )}
    </section>
  );
}
