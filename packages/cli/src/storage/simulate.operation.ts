import { EdgeSimulatorToken } from '@svc/composition';
import { DomainError, Random } from '@svc/domain';
import type { EdgeSimulator, SimulationSummary } from '@svc/edge-simulator';
import type { Container } from 'inversify';

/** What `svc simulate` prints: the run's summary with its speed. */
export interface SimulateResult extends SimulationSummary {
  elapsed_ms: number;
  rows_per_second: number;
}

/** A seed from the Random port (48 bits: a safe integer that is short to type back with `--seed`). */
function randomSeed(random: Random): number {
  return random.bytes(6).reduce((seed, byte) => seed * 256 + byte, 0);
}

/**
 * `svc simulate` as a storage operation (here or in the server holding the embedded engines): plays the edge
 * for one profile and reports what it wrote and how fast. The numbers were checked by the command.
 */
export async function simulateOperation(
  container: Container,
  args: Record<string, unknown>,
): Promise<SimulateResult> {
  const profileId = typeof args.profile === 'string' ? args.profile : '';
  const simulator = await container.getAsync<EdgeSimulator | null>(EdgeSimulatorToken);
  if (simulator === null)
    throw new Error('svc simulate needs the engine-backed stores (PostgreSQL and a columnar store)');
  const seed = typeof args.seed === 'number' ? args.seed : randomSeed(container.get<Random>(Random));
  const started = performance.now();
  try {
    const summary = await simulator.run({
      profileId,
      queries: Number(args.queries),
      days: Number(args.days),
      devices: Number(args.devices),
      seed,
      ...(typeof args.device === 'string' ? { device: args.device } : {}),
      ...(typeof args.at === 'number' ? { at: args.at } : {}),
    });
    const elapsed = performance.now() - started;
    return {
      ...summary,
      elapsed_ms: Math.round(elapsed),
      rows_per_second: Math.round(summary.queries / Math.max(elapsed / 1000, 0.001)),
    };
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found')
      throw new Error(`no profile ${profileId} (no live profile has this id)`);
    throw error;
  }
}
