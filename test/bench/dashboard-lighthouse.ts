import { createServer } from 'node:net';
import lighthouse, { type Config, desktopConfig, type Result } from 'lighthouse';
import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM } from '../support/dashboard-browser.js';

/** Issue 36's floors, as Lighthouse scores (0–100), for every page and form factor. */
const LIGHTHOUSE_TARGETS = { performance: 90, accessibility: 95, 'best-practices': 95 } as const;
type Category = keyof typeof LIGHTHOUSE_TARGETS;
const CATEGORIES = Object.keys(LIGHTHOUSE_TARGETS) as Category[];

/** A page to audit: its name in the report, its path, and whether it needs the session. */
export interface AuditedPage {
  name: string;
  path: string;
  signedIn: boolean;
}

/** One page's scores in one form factor, with the audits that cost it points. */
export interface PageScores {
  page: string;
  formFactor: 'mobile' | 'desktop';
  scores: Record<Category, number>;
  /** Audits of the three categories that did not pass fully (`id score`), worst first. */
  findings: string[];
  /** First and largest contentful paint and total blocking time, in ms (simulated throttling). */
  metrics: { fcp: number; lcp: number; tbt: number };
  /** The scripts that kept the main thread busiest (Lighthouse's bootup-time), costliest first: where TBT goes. */
  scriptCosts: string[];
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

function findingsOf(result: Result): string[] {
  const ids = new Set(
    CATEGORIES.flatMap((category) =>
      (result.categories[category]?.auditRefs ?? []).filter((ref) => ref.weight > 0).map((ref) => ref.id),
    ),
  );
  return [...ids]
    .map((id) => result.audits[id])
    .filter((audit) => audit !== undefined && audit.score !== null && audit.score < 1)
    .sort((a, b) => (a?.score ?? 0) - (b?.score ?? 0))
    .map((audit) => `${audit?.id} ${(audit?.score ?? 0).toFixed(2)}`);
}

function scriptCostsOf(result: Result): string[] {
  const details = result.audits['bootup-time']?.details;
  if (details?.type !== 'table') return [];
  return details.items.slice(0, 3).map((item) => {
    const url = typeof item.url === 'string' ? new URL(item.url, 'http://page/').pathname : String(item.url);
    const scripting = typeof item.scripting === 'number' ? item.scripting : 0;
    const total = typeof item.total === 'number' ? item.total : 0;
    return `${url} ${scripting.toFixed(0)} ms scripting of ${total.toFixed(0)} ms`;
  });
}

/** Runs of each page and form factor; the one with the median performance score is reported. */
const RUNS = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3));

/** The run with the median performance score, as Lighthouse's own guidance picks among repeated runs. */
function medianRun(results: readonly Result[]): Result {
  const sorted = [...results].sort(
    (a, b) => (a.categories.performance?.score ?? 0) - (b.categories.performance?.score ?? 0),
  );
  const median = sorted[Math.floor(sorted.length / 2)];
  if (median === undefined) throw new Error('no Lighthouse run');
  return median;
}

function metric(result: Result, id: string): number {
  return result.audits[id]?.numericValue ?? Number.NaN;
}

/**
 * Runs Lighthouse 12 (13 wants Node 22) on each page, mobile (its default: a mid-range phone, simulated slow
 * 4G and a 4× slower CPU) and desktop, in Debian's Chromium started by playwright-core with a DevTools port
 * Lighthouse connects to. Signed-in pages get the session cookie on every request (`extraHeaders`), so they
 * load as for a person who signed in; each run starts from an empty cache. Each page and form factor runs
 * `BENCH_LIGHTHOUSE_RUNS` times (3), and the run with the median performance score is reported: one run's score
 * moves by ten points and more with the machine's load.
 */
export async function lighthouseScores(
  baseUrl: string,
  pages: readonly AuditedPage[],
  sessionCookie: string,
): Promise<PageScores[]> {
  const port = await freePort();
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', `--remote-debugging-port=${port}`],
    });
    const results: PageScores[] = [];
    for (const formFactor of ['mobile', 'desktop'] as const) {
      const config: Config | undefined = formFactor === 'desktop' ? desktopConfig : undefined;
      for (const page of pages) {
        const runs: Result[] = [];
        for (let turn = 0; turn < RUNS; turn += 1) {
          const run = await lighthouse(
            `${baseUrl}${page.path}`,
            {
              port,
              output: 'json',
              logLevel: 'error',
              onlyCategories: [...CATEGORIES],
              ...(page.signedIn ? { extraHeaders: { cookie: `svc_session=${sessionCookie}` } } : {}),
            },
            config,
          );
          if (run === undefined) throw new Error(`Lighthouse gave no result for ${page.path}`);
          if (run.lhr.runtimeError !== undefined)
            throw new Error(`Lighthouse failed on ${page.path}: ${run.lhr.runtimeError.message}`);
          runs.push(run.lhr);
        }
        const result = medianRun(runs);
        const scores = Object.fromEntries(
          CATEGORIES.map((category) => [
            category,
            Math.round((result.categories[category]?.score ?? 0) * 100),
          ]),
        ) as Record<Category, number>;
        results.push({
          page: page.name,
          formFactor,
          scores,
          findings: findingsOf(result),
          scriptCosts: scriptCostsOf(result),
          metrics: {
            fcp: metric(result, 'first-contentful-paint'),
            lcp: metric(result, 'largest-contentful-paint'),
            tbt: metric(result, 'total-blocking-time'),
          },
        });
      }
    }
    return results;
  } finally {
    await browser?.close();
  }
}

/** True when every score meets its floor. */
export function meetsTargets(scores: PageScores): boolean {
  return CATEGORIES.every((category) => scores.scores[category] >= LIGHTHOUSE_TARGETS[category]);
}

/** One line per page and form factor, scores beside the floors, then what cost points. */
export function lighthouseLines(results: readonly PageScores[]): string[] {
  const lines = [
    `Lighthouse 12, median of ${RUNS} runs (targets: performance ≥ ${LIGHTHOUSE_TARGETS.performance}, accessibility ≥ ${LIGHTHOUSE_TARGETS.accessibility}, best practices ≥ ${LIGHTHOUSE_TARGETS['best-practices']})`,
  ];
  for (const result of results) {
    const { performance, accessibility } = result.scores;
    lines.push(
      `${`${result.page}, ${result.formFactor}`.padEnd(28)} performance ${String(performance).padStart(3)}  ` +
        `accessibility ${String(accessibility).padStart(3)}  best practices ${String(result.scores['best-practices']).padStart(3)}  ` +
        `${meetsTargets(result) ? 'ok' : 'BELOW'}  |  FCP ${result.metrics.fcp.toFixed(0)} ms, LCP ${result.metrics.lcp.toFixed(0)} ms, TBT ${result.metrics.tbt.toFixed(0)} ms`,
    );
    if (result.findings.length > 0) lines.push(`    not fully passed: ${result.findings.join(', ')}`);
    if (!meetsTargets(result) && result.scriptCosts.length > 0)
      lines.push(`    main thread by script: ${result.scriptCosts.join('; ')}`);
  }
  return lines;
}
