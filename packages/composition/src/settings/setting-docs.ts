import { z } from 'zod';

/** What the configuration reference (the README's table) says of one setting. */
export interface SettingDoc {
  /** What the setting does and which values it takes, in one or two sentences of Markdown. */
  description: string;
  /** The `svc serve` flag that overrides the variable, when there is one. */
  flag?: string;
  /**
   * The default as a reader should see it, when the schema's own default is computed at start (from other
   * settings or the mode) or reads badly once parsed; otherwise the schema's default is shown.
   */
  defaultText?: string;
}

/** The documentation of every setting, attached to its schema where the setting is declared. */
export const settingDocs = z.registry<SettingDoc>();
