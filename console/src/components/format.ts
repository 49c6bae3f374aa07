export const usd = (n: number) =>
  n.toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 4 });

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

export const bytes = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;

export const json = (v: unknown) => JSON.stringify(v, null, 2);

export const shortId = (id: string) => id.slice(0, 8);
