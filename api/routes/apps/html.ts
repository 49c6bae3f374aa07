import type { FormField } from '../../../db/entities/App';
import type { ValidationIssue } from '../../../domain/errors';
import { isTerminal, type PublicApp, type PublicRunStatus } from '../../../domain/apps/public';

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(
    /[&<>"'`]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' })[c]!,
  );
}

// Plain, high-contrast styles inline (the CSP allows no other source); no script anywhere.
const STYLE = `body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a;background:#fff;line-height:1.5}
label{display:block;font-weight:600;margin-top:1rem}input,textarea,select{display:block;width:100%;box-sizing:border-box;padding:.5rem;margin-top:.25rem;border:1px solid #555;border-radius:4px;font:inherit}
textarea{min-height:8rem}button{margin-top:1.5rem;padding:.6rem 1.4rem;font:inherit;background:#1f4fbf;color:#fff;border:0;border-radius:4px;cursor:pointer}
button:focus,input:focus,textarea:focus,select:focus{outline:3px solid #f0b400;outline-offset:2px}.error{color:#a00000}.hint{color:#444;font-size:.9rem}
pre{background:#f3f3f3;padding:1rem;overflow:auto;white-space:pre-wrap;word-break:break-word}`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** Bytes as the largest whole unit a person reads easily (25 MiB, 1 KiB, 300 bytes). */
function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

function control(f: FormField, value: string, issue: string | undefined, uploadLimit: string): string {
  const id = `field-${f.name}`;
  const file = f.type === 'file';
  const describedBy = [file ? `${id}-hint` : '', issue ? `${id}-error` : ''].filter(Boolean).join(' ');
  const attrs = [
    `id="${escapeHtml(id)}"`,
    `name="${escapeHtml(f.name)}"`,
    f.required ? 'required aria-required="true"' : '',
    issue ? 'aria-invalid="true"' : '',
    describedBy ? `aria-describedby="${escapeHtml(describedBy)}"` : '',
  ]
    .filter(Boolean)
    .join(' ');
  switch (f.type) {
    case 'textarea':
      return `<textarea ${attrs}>${escapeHtml(value)}</textarea>`;
    case 'number':
      return `<input type="number" step="any" ${attrs} value="${escapeHtml(value)}">`;
    case 'select': {
      const none = f.required ? '' : `<option value="">(none)</option>`;
      const options = (f.options ?? [])
        .map((o) => `<option value="${escapeHtml(o)}"${o === value ? ' selected' : ''}>${escapeHtml(o)}</option>`)
        .join('');
      return `<select ${attrs}>${none}${options}</select>`;
    }
    case 'file': {
      // A browser sends no file back with a refused form: the person picks it again.
      const what = f.multiple ? 'One or more files' : 'One file';
      const hint = `<p class="hint" id="${escapeHtml(id)}-hint">${what}, up to ${escapeHtml(uploadLimit)} each.</p>`;
      return `<input type="file" ${attrs}${f.multiple ? ' multiple' : ''}>${hint}`;
    }
    default:
      return `<input type="text" ${attrs} value="${escapeHtml(value)}">`;
  }
}

/**
 * The public form of an app: a label for every control, the problems of a refused submission next to
 * their fields and summed up at the top; a plain POST, so it works without JavaScript.
 */
export function formPage(
  app: PublicApp,
  action: string,
  values: Record<string, string> = {},
  issues: ValidationIssue[] = [],
  maxUploadBytes = 0,
): string {
  const uploadLimit = sizeText(maxUploadBytes);
  const byField = new Map(issues.map((i) => [i.path, i.message]));
  const summary = issues.length
    ? `<div role="alert"><h2>Please correct the form</h2><ul>${issues
        .map((i) => {
          const label = app.form.fields.find((f) => f.name === i.path)?.label ?? i.path;
          return `<li class="error">${escapeHtml(label)}: ${escapeHtml(i.message)}</li>`;
        })
        .join('')}</ul></div>`
    : '';
  const fields = app.form.fields
    .map((f) => {
      const issue = byField.get(f.name);
      const label = `${escapeHtml(f.label)}${f.required ? ' <span aria-hidden="true">*</span>' : ''}`;
      const error = issue ? `<p class="error" id="field-${escapeHtml(f.name)}-error">${escapeHtml(issue)}</p>` : '';
      return `<div><label for="field-${escapeHtml(f.name)}">${label}</label>${control(f, values[f.name] ?? '', issue, uploadLimit)}${error}</div>`;
    })
    .join('\n');
  const description = app.description ? `<p>${escapeHtml(app.description)}</p>` : '';
  // Files travel only in a multipart body; a form without file fields stays a plain urlencoded POST.
  const enctype = app.form.fields.some((f) => f.type === 'file') ? ' enctype="multipart/form-data"' : '';
  return page(
    app.name,
    `<h1>${escapeHtml(app.name)}</h1>
${description}
${summary}
<form method="post" action="${escapeHtml(action)}"${enctype}>
<p class="hint">Fields marked * are required.</p>
${fields}
<button type="submit">Run</button>
</form>`,
  );
}

const STATUS_TEXT: Record<string, string> = {
  queued: 'Waiting to start…',
  running: 'Running…',
  needs_input: 'Waiting for the app owner…',
  needs_approval: 'Waiting for approval by the app owner…',
  needs_review: 'Waiting for review by the app owner…',
  succeeded: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** Links of a status page: itself, with and without automatic updates. */
export interface StatusLinks {
  form: string;
  /** This page with automatic updates on and off. */
  auto: string;
  manual: string;
}

/**
 * A run's status page. While the run is not finished, the response's `Refresh` header reloads it every
 * 2 seconds (no script), and a link turns that off (a time limit the visitor can switch off, WCAG 2.2.1);
 * without automatic updates a link reloads it by hand.
 */
export function statusPage(app: PublicApp, run: PublicRunStatus, links: StatusLinks, autoRefresh: boolean): string {
  const done = isTerminal(run.status);
  const output =
    run.status === 'succeeded'
      ? `<h2>Output</h2><pre id="output">${escapeHtml(JSON.stringify(run.output, null, 2))}</pre>`
      : '';
  const error = run.error ? `<p class="error" id="error">${escapeHtml(run.error.message)}</p>` : '';
  const updates = done
    ? ''
    : autoRefresh
      ? `<p class="hint">This page updates itself every 2 seconds. <a href="${escapeHtml(links.manual)}">Stop automatic updates</a></p>`
      : `<p><a href="${escapeHtml(links.manual)}">Check again</a> · <a href="${escapeHtml(links.auto)}">Update automatically</a></p>`;
  const text = STATUS_TEXT[run.status] ?? run.status;
  return page(
    `${app.name}: ${text}`,
    `<h1>${escapeHtml(app.name)}</h1>
<p role="status" aria-live="polite">Status: <strong id="status" data-status="${escapeHtml(run.status)}">${escapeHtml(text)}</strong></p>
${updates}
${error}
${output}
<p><a href="${escapeHtml(links.form)}">Run again</a></p>`,
  );
}
