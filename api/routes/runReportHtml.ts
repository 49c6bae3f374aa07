import { createHash } from 'node:crypto';
import type { RunReport, ReportStep } from '../../domain/runs/report';
import { escapeHtml } from './apps/html';

// Print-friendly, inline only: the page loads nothing (the CSP allows this style block by its hash alone).
const STYLE = `body{font-family:system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a;background:#fff;line-height:1.45}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #999}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #bbb;padding:.3rem .5rem;text-align:left;vertical-align:top}
pre{background:#f3f3f3;padding:.75rem;white-space:pre-wrap;word-break:break-word;margin:.25rem 0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:600}dd{margin:0}
@media print{body{margin:0;max-width:none}a{color:inherit}}`;

/**
 * The report page's Content-Security-Policy: nothing may load or run; the one inline style block is allowed
 * by its hash, so even markup that slipped through escaping could not style, script or send anything.
 */
export const REPORT_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const json = (value: unknown) => `<pre>${escapeHtml(JSON.stringify(value, null, 2) ?? 'null')}</pre>`;
const text = (value: string | null | undefined) => (value == null ? '—' : escapeHtml(value));

function answererText(step: ReportStep): string {
  const by = step.gate?.answeredBy;
  if (!by) return step.gate?.answeredAt ? 'the service' : '—';
  const kind = by.type === 'user' ? 'user' : 'API key';
  return `${kind} ${text(by.name ?? '(removed)')} <small>${escapeHtml(by.id)}</small>`;
}

function timelineRows(report: RunReport): string {
  return report.timeline
    .map((step) => {
      const what = step.gate
        ? `<strong>asked</strong>${json(step.gate.asked)}<strong>answer</strong>${json(step.gate.answer)}` +
          `<div>answered by ${answererText(step)} at ${text(step.gate.answeredAt)}</div>`
        : [step.tool ? `tool ${text(step.tool)}` : '', step.error ? `error: ${text(step.error)}` : ''].join(' ');
      return `<tr><td>${step.index}</td><td>${escapeHtml(step.type)}</td><td>${escapeHtml(step.status)}</td><td>${text(step.startedAt)}</td><td>${text(step.completedAt)}</td><td>${what}</td></tr>`;
    })
    .join('\n');
}

function artifactRows(report: RunReport, publicUrl: string): string {
  if (report.artifacts.length === 0) return '<p>None.</p>';
  const rows = report.artifacts
    .map((a) => {
      const href = `${publicUrl}/v1/files/${encodeURIComponent(a.fileId)}/content`;
      return `<tr><td><a href="${escapeHtml(href)}">${escapeHtml(a.name)}</a></td><td>${escapeHtml(a.mime)}</td><td>${a.size}</td><td>${a.step ?? '—'}</td><td>${escapeHtml(a.createdAt)}</td></tr>`;
    })
    .join('\n');
  return `<table><thead><tr><th>file</th><th>type</th><th>bytes</th><th>step</th><th>created</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * The run report as one printable, self-contained HTML page (docs/api/runs.md#report). Everything a run
 * carries (its output above all) is untrusted and escaped; file links are built from `publicUrl`.
 */
export function renderRunReport(report: RunReport, publicUrl: string): string {
  const { run, agent, usage } = report;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Run report ${escapeHtml(run.id)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Run report</h1>
<dl>
<dt>run</dt><dd>${escapeHtml(run.id)}</dd>
<dt>status</dt><dd>${escapeHtml(run.status)}</dd>
<dt>agent</dt><dd>${text(agent.name ?? '(unknown)')} <small>${escapeHtml(agent.id)}</small>, version ${agent.version}</dd>
<dt>created</dt><dd>${text(run.createdAt)}</dd>
<dt>started</dt><dd>${text(run.startedAt)}</dd>
<dt>completed</dt><dd>${text(run.completedAt)}</dd>
<dt>tokens</dt><dd>${usage.inputTokens} in, ${usage.outputTokens} out</dd>
<dt>cost</dt><dd>${usage.costUsd} USD</dd>
</dl>
<h2>Timeline</h2>
<table><thead><tr><th>#</th><th>type</th><th>status</th><th>started</th><th>completed</th><th>detail</th></tr></thead>
<tbody>
${timelineRows(report)}
</tbody></table>
<h2>Output</h2>
${json(report.output)}
<h2>Error</h2>
${report.error ? `<p>${escapeHtml(report.error.code)}: ${escapeHtml(report.error.message)}</p>` : '<p>None.</p>'}
<h2>Artifacts</h2>
${artifactRows(report, publicUrl)}
</main>
</body>
</html>
`;
}
