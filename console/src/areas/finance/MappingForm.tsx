import type { FinanceCsvMapping } from '@svc/client';
import type { CsvPreview } from './csvPreview';

type DateFormat = NonNullable<FinanceCsvMapping['dateFormat']>;

// A record over the client's union, so a format the service adds cannot be missing here unnoticed.
const DATE_FORMATS: Record<DateFormat, string> = {
  'YYYY-MM-DD': '2026-12-31',
  'DD.MM.YYYY': '31.12.2026',
  'DD/MM/YYYY': '31/12/2026',
  'MM/DD/YYYY': '12/31/2026',
  'DD-MM-YYYY': '31-12-2026',
  'YYYY/MM/DD': '2026/12/31',
  YYYYMMDD: '20261231',
  'MM/DD/YY': '12/31/26',
  'DD/MM/YY': '31/12/26',
  'DD.MM.YY': '31.12.26',
};

export interface MappingState {
  date: string;
  description: string;
  amountMode: 'single' | 'split';
  amount: string;
  debit: string;
  credit: string;
  currency: string;
  counterparty: string;
  dateFormat: DateFormat;
  decimal: '.' | ',';
  defaultCurrency: string;
  negate: boolean;
}

function ColumnSelect({
  id,
  label,
  value,
  header,
  optional,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  header: string[];
  optional?: boolean;
  onChange: (v: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} required={!optional}>
        <option value="">{optional ? '(none)' : '(choose a column)'}</option>
        {header.map((h) => (
          <option key={h} value={h}>
            {h}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Which column holds what, with the file's first rows, the mapped columns marked. */
export function MappingForm({
  preview,
  value,
  onChange,
}: {
  preview: CsvPreview;
  value: MappingState;
  onChange: (m: MappingState) => void;
}) {
  const set = <K extends keyof MappingState>(k: K, v: MappingState[K]) => onChange({ ...value, [k]: v });
  const { header } = preview;
  const used = new Map<string, string>([
    [value.date, 'date'],
    [value.description, 'description'],
    ...(value.amountMode === 'single'
      ? [[value.amount, 'amount'] as [string, string]]
      : [[value.debit, 'debit'] as [string, string], [value.credit, 'credit'] as [string, string]]),
    [value.currency, 'currency'],
    [value.counterparty, 'counterparty'],
  ]);
  return (
    <>
      <div className="table-wrap" role="region" aria-label="The file's first rows" tabIndex={0}>
        <table>
          <caption className="small muted">
            The first {preview.rows.length} rows, separated by{' '}
            {preview.separator === '\t' ? 'tabs' : `"${preview.separator}"`}
          </caption>
          <thead>
            <tr>
              {header.map((h, i) => (
                <th key={`${h}-${i}`} scope="col">
                  {h}
                  {used.get(h) ? <span className="badge">{used.get(h)}</span> : null}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((r, i) => (
              <tr key={i}>
                {header.map((_, j) => (
                  <td key={j}>{r[j] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="row">
        <ColumnSelect
          id="map-date"
          label="Date column"
          value={value.date}
          header={header}
          onChange={(v) => set('date', v)}
        />
        <ColumnSelect
          id="map-description"
          label="Description column"
          value={value.description}
          header={header}
          onChange={(v) => set('description', v)}
        />
      </div>
      <fieldset>
        <legend>Amounts</legend>
        <label className="check">
          <input
            type="radio"
            name="amount-mode"
            checked={value.amountMode === 'single'}
            onChange={() => set('amountMode', 'single')}
          />{' '}
          One signed amount column
        </label>
        <label className="check">
          <input
            type="radio"
            name="amount-mode"
            checked={value.amountMode === 'split'}
            onChange={() => set('amountMode', 'split')}
          />{' '}
          Separate debit and credit columns
        </label>
        <div className="row">
          {value.amountMode === 'single' ? (
            <ColumnSelect
              id="map-amount"
              label="Amount column"
              value={value.amount}
              header={header}
              onChange={(v) => set('amount', v)}
            />
          ) : (
            <>
              <ColumnSelect
                id="map-debit"
                label="Debit column (money out)"
                value={value.debit}
                header={header}
                onChange={(v) => set('debit', v)}
              />
              <ColumnSelect
                id="map-credit"
                label="Credit column (money in)"
                value={value.credit}
                header={header}
                onChange={(v) => set('credit', v)}
              />
            </>
          )}
        </div>
      </fieldset>
      <div className="row">
        <ColumnSelect
          id="map-currency"
          label="Currency column (optional)"
          value={value.currency}
          header={header}
          optional
          onChange={(v) => set('currency', v)}
        />
        <ColumnSelect
          id="map-counterparty"
          label="Counterparty column (optional)"
          value={value.counterparty}
          header={header}
          optional
          onChange={(v) => set('counterparty', v)}
        />
      </div>
      <div className="row">
        <div className="field">
          <label htmlFor="map-date-format">Date format</label>
          <select
            id="map-date-format"
            value={value.dateFormat}
            onChange={(e) => set('dateFormat', e.target.value as DateFormat)}
          >
            {Object.entries(DATE_FORMATS).map(([f, example]) => (
              <option key={f} value={f}>
                {f} ({example})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="map-decimal">Decimal separator</label>
          <select id="map-decimal" value={value.decimal} onChange={(e) => set('decimal', e.target.value as '.' | ',')}>
            <option value=".">Point (1,234.56)</option>
            <option value=",">Comma (1.234,56)</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="map-default-currency">Currency of rows naming none (default USD)</label>
          <input
            id="map-default-currency"
            value={value.defaultCurrency}
            onChange={(e) => set('defaultCurrency', e.target.value.toUpperCase())}
            maxLength={3}
            pattern="[A-Z]{3}"
            placeholder="USD"
          />
        </div>
      </div>
      <label className="check">
        <input type="checkbox" checked={value.negate} onChange={(e) => set('negate', e.target.checked)} /> The file
        writes money out as positive (many card statements)
      </label>
    </>
  );
}
