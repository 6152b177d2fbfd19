import { z } from 'zod';

/** Account preferences as answered (spec 2.2): every key present, unset keys at their defaults. */
export const Preferences = z
  .object({
    alerts: z.object({
      node_offline: z.boolean().meta({ description: 'Email when a node goes offline; default true.' }),
    }),
  })
  .meta({ id: 'Preferences', description: 'Account preferences (spec 2.2); unset keys take defaults.' });
export type Preferences = z.infer<typeof Preferences>;

/** A JSON merge of preferences (spec 4.8): omitted keys keep their value; unknown keys are refused. */
export const PreferencesPatch = z
  .strictObject({
    alerts: z.strictObject({ node_offline: z.boolean().optional() }).optional(),
  })
  .meta({ id: 'PreferencesPatch', description: 'JSON merge object; omitted keys keep their value.' });
export type PreferencesPatch = z.infer<typeof PreferencesPatch>;

/** Defaults of unset keys (spec 2.2). */
export const DEFAULT_PREFERENCES: Preferences = { alerts: { node_offline: true } };
