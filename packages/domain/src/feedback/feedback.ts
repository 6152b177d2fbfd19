import { z } from 'zod';
import type { Clock } from '../shared/clock.ports.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type { AcceptedReport, Reporter } from './client-error.js';
import type { FeedbackScope } from './feedback.ports.js';

/** Body of POST /v1/feedback (ROUTES.md). */
export const FeedbackCreate = z
  .object({
    message: z
      .string()
      .min(1, 'must be 1 to 5000 characters')
      .max(5000, 'must be 1 to 5000 characters')
      .meta({ description: 'The feedback, 1 to 5000 characters.' }),
    rating: z
      .number()
      .int('must be an integer from 1 to 5')
      .min(1, 'must be an integer from 1 to 5')
      .max(5, 'must be an integer from 1 to 5')
      .optional(),
    url: z.string().max(2048, 'must be at most 2048 characters').optional(),
  })
  .meta({ id: 'FeedbackCreate' });
export type FeedbackCreate = z.infer<typeof FeedbackCreate>;

/** Stores dashboard feedback with its account, organisation and time. */
export class FeedbackService {
  constructor(private readonly deps: { uow: ScopedUnitOfWork<FeedbackScope>; clock: Clock }) {}

  async send(reporter: Reporter, feedback: FeedbackCreate): Promise<AcceptedReport> {
    const id = await this.deps.uow.run((tx) =>
      tx.feedback.insert({
        ...reporter,
        message: feedback.message,
        rating: feedback.rating ?? null,
        url: feedback.url ?? null,
        createdAt: this.deps.clock.now(),
      }),
    );
    return { id };
  }
}
