import { z } from 'zod';
import { ProblemCodes } from './problem-codes.js';

/** A problem document (spec 2.12, RFC 9457). */
export const Problem = z
  .object({
    type: z.string().meta({ description: '`{problem_base}/<code>`' }),
    title: z.string().meta({ description: 'HTTP reason phrase.' }),
    status: z.number().int(),
    code: z.string().meta({
      description: `Stable machine code; match on this. Known values: ${ProblemCodes.join(', ')}. Unknown values may appear; treat them by status.`,
    }),
    detail: z.string(),
    errors: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .meta({
        description: 'Field-level failures; field is dotted (settings.block_mode) or a query parameter.',
      }),
    request_id: z.string(),
    retry_after: z
      .number()
      .int()
      .optional()
      .meta({ description: 'Seconds; repeats the Retry-After header.' }),
  })
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof Problem>;
