import { join, resolve } from 'node:path';
import type { Settings } from '@svc/composition';
import type { StorageFlags } from '../settings-from-options.js';

/**
 * Where the dashboard answers: this server (under `localhost` on loopback, where passkeys work, since WebAuthn
 * refuses an IP address, and where emailed links lead), or the dashboard hosted elsewhere that
 * SVC_DASHBOARD_URL names.
 */
function dashboardLine(settings: Settings): string {
  if (!settings.dashboard.servedBySvc) return `${settings.dashboard.url} (hosted apart from this server)`;
  return `${settings.dashboard.url}/`;
}

/**
 * What a development server prints after its listening line: where a newcomer goes next. The listening line
 * stays the first line, the one scripts wait for; these follow it.
 */
export function nextSteps(settings: Settings, flags: StorageFlags): string {
  const dataDirFlag =
    flags.dataDir === undefined && process.env.SVC_DATA_DIR === undefined
      ? ''
      : ` --data-dir ${settings.storage.dataDir}`;
  const lines: [label: string, text: string][] = [
    [
      'API reference',
      `${settings.http.baseUrl}/docs (the OpenAPI document: ${settings.http.baseUrl}/v1/openapi.yaml)`,
    ],
    ['dashboard', dashboardLine(settings)],
  ];
  if (settings.mail.smtpUrl === undefined)
    lines.push([
      'mail',
      `${join(resolve(settings.storage.dataDir), 'mail')} (one .eml file per message sent)`,
    ]);
  lines.push(
    ['an operator', `sign up, then: npx svc accounts set-operator EMAIL${dataDirFlag}`],
    ['walk-through', 'docs/first-ten-minutes.md (sign up, token, profile, rules, simulate, analytics)'],
  );
  const width = Math.max(...lines.map(([label]) => label.length));
  return `${lines.map(([label, text]) => `  ${label.padEnd(width)}  ${text}`).join('\n')}\n`;
}
