import { RawSettings, settingDocs } from '@svc/composition';
import { z } from 'zod';

/** One row of the configuration reference. */
export interface SettingReference {
  /** The environment variable. */
  name: string;
  flag: string | undefined;
  /** The default as shown to readers (Markdown). */
  defaultText: string;
  description: string;
}

/** The default a reader sees: the documented text, else the schema's default, else "unset". */
function defaultOf(schema: z.ZodType, documented: string | undefined): string {
  if (documented !== undefined) return documented;
  if (schema instanceof z.ZodDefault) {
    const value: unknown = schema.def.defaultValue;
    if (typeof value === 'string' || typeof value === 'number') return `\`${value}\``;
  }
  return 'unset';
}

/**
 * Every setting of {@link RawSettings} with its documentation, in declaration order. Throws naming a setting
 * declared without documentation, so that none reaches users undocumented.
 */
export function settingsReference(): SettingReference[] {
  return Object.entries(RawSettings.shape).map(([name, schema]) => {
    const doc = settingDocs.get(schema);
    if (doc === undefined) throw new Error(`setting ${name} has no documentation (settingDocs)`);
    return {
      name,
      flag: doc.flag,
      defaultText: defaultOf(schema, doc.defaultText),
      description: doc.description,
    };
  });
}

/** A Markdown table cell: pipes escaped, on one line. */
function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/**
 * The configuration reference as the Markdown table the README carries between its settings markers, laid
 * out as the repository's formatter (biome) lays tables out: every column padded to its widest cell.
 */
export function settingsTableMarkdown(): string {
  const header = ['Setting (flag / environment)', 'Default', 'Meaning'];
  const rows = settingsReference().map((setting) => [
    cell(setting.flag === undefined ? `\`${setting.name}\`` : `\`${setting.flag}\` / \`${setting.name}\``),
    cell(setting.defaultText),
    cell(setting.description),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((text, column) => text.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}
