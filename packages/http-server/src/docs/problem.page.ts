import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { type ProblemCode, ProblemCodes } from '@svc/domain';
import { PROBLEM_CATALOGUE } from '../problems/problem-catalogue.js';
import { PROBLEM_STATUS } from '../problems/problem-status.js';
import { escapeHtml, proseHtml } from './html-text.js';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:42rem;padding:0 1rem;color:#1d2430}
code{font:14px ui-monospace,monospace;background:#f0f2f5;padding:0 .2rem;border-radius:3px}
.note{color:#5b6575;font-size:14px}dt{margin-top:.75rem}dd{margin-left:1rem}`;

/** Content-Security-Policy of the problem pages: nothing loads or runs but their inline style sheet. */
export const PROBLEM_PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

/** True for a code of the catalogue (the path segment of a problem `type` URI). */
export function isProblemCode(value: string): value is ProblemCode {
  return (ProblemCodes as readonly string[]).includes(value);
}

/** Where the pages link to: the problem pages themselves and the API reference. */
export interface ProblemPageLinks {
  problemBase: string;
  baseUrl: string;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>${body}</body></html>
`;
}

function statusOf(code: ProblemCode): string {
  const status = PROBLEM_STATUS[code];
  return `${status} ${STATUS_CODES[status] ?? ''}`.trim();
}

/**
 * The page a problem `type` URI (`{problem_base}/<code>`) answers: what the code means and what to do, from
 * the catalogue, for people who follow the URI from a problem document.
 */
export function renderProblemPage(code: ProblemCode, links: ProblemPageLinks): string {
  return page(
    `svc problem: ${code}`,
    `<h1><code>${escapeHtml(code)}</code></h1><p class="note">HTTP ${escapeHtml(statusOf(code))} · an svc API problem document (RFC 9457) with <code>"code": "${escapeHtml(code)}"</code></p>
${proseHtml(PROBLEM_CATALOGUE[code])}
<p class="note">The document’s <code>detail</code> says what happened in this case and <code>request_id</code> names the request; <code>errors</code>, when present, lists the fields at fault. <a href="${escapeHtml(links.problemBase)}/">Every problem code</a> · <a href="${escapeHtml(links.baseUrl)}/docs">API reference</a></p>`,
  );
}

/** The list of every problem code, each linking to its page. */
export function renderProblemIndex(links: ProblemPageLinks): string {
  const entries = ProblemCodes.map(
    (code) =>
      `<dt><a href="${escapeHtml(links.problemBase)}/${escapeHtml(code)}"><code>${escapeHtml(code)}</code></a> <span class="note">${escapeHtml(statusOf(code))}</span></dt><dd>${escapeHtml(PROBLEM_CATALOGUE[code])}</dd>`,
  ).join('\n');
  return page(
    'svc problem codes',
    `<h1>svc problem codes</h1><p>Every error of the svc API is a problem document whose <code>type</code> is one of these pages and whose <code>code</code> clients match on.</p><dl>${entries}</dl>`,
  );
}
