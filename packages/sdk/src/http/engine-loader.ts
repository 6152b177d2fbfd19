import { type FetchCredentials, fetchEngine } from './fetch-engine.js';
import type { HttpEngine, TransportKind } from './http-engine.js';

/** The client options that choose and configure the engine. */
export interface EngineChoice {
  transport?: TransportKind;
  fetch?: typeof fetch;
  credentials?: FetchCredentials;
  dispatcher?: import('undici').Dispatcher;
}

function runsOnNode(): boolean {
  return typeof globalThis.process?.versions?.node === 'string';
}

/** The engine `transport` names, or when unset: fetch if a fetch option is given or outside Node, else undici. */
function transportKindOf(choice: EngineChoice): TransportKind {
  if (choice.transport !== undefined) return choice.transport;
  if (choice.fetch !== undefined || choice.credentials !== undefined) return 'fetch';
  return runsOnNode() ? 'undici' : 'fetch';
}

/**
 * Builds the engine on the first call. undici comes through a dynamic import, so merely loading the SDK never
 * loads it, and the browser build swaps its module for a stub.
 */
export async function loadEngine(choice: EngineChoice): Promise<HttpEngine> {
  if (transportKindOf(choice) === 'fetch') return fetchEngine(choice);
  const { undiciEngine } = await import('./undici-engine.js');
  return undiciEngine(choice.dispatcher);
}
