import { convert } from 'html-to-text';

const SKIPPED = ['script', 'style', 'template', 'noscript', 'svg', 'img'];
const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

/**
 * The visible text of an HTML document, by html-to-text: the title and the body; comments, `<script>`,
 * `<style>`, `<template>`, `<noscript>`, `<svg>` and images dropped; block elements on their own lines,
 * links as their text; character references decoded. Then runs of blanks collapse and blank lines go,
 * since the text is for search, not for reading (docs/api/knowledge.md).
 */
export function htmlToText(html: string): string {
  const text = convert(html, {
    wordwrap: false,
    baseElements: { selectors: ['title', 'body'], returnDomByDefault: true },
    selectors: [
      ...SKIPPED.map((selector) => ({ selector, format: 'skip' })),
      ...HEADINGS.map((selector) => ({ selector, options: { uppercase: false } })),
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'ul', format: 'unorderedList', options: { itemPrefix: ' ' } },
      { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
    ],
  });
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}
