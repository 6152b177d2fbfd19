/**
 * The one thing the transport needs from an HTTP client: send a request and hand back the answer with a
 * body read as it arrives. Two implement it: undici's `request` (Node, the default there) and the standard
 * `fetch` (browsers, or Node when asked), so that a browser bundle never loads undici.
 */
export interface HttpEngine {
  send(request: EngineRequest): Promise<EngineResponse>;
  /** Whether a failure of `send` or of reading the body was the engine's own time-out. */
  isTimeout(error: unknown): boolean;
}

/** One request as the engine sends it. */
export interface EngineRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** Aborts the request and any body read still going on. */
  signal: AbortSignal;
  /** Longest wait for the status line and headers. */
  headersTimeoutMs: number;
  /** Longest silence while the body arrives. */
  bodyTimeoutMs: number;
}

/** An answer whose headers have arrived. */
export interface EngineResponse {
  status: number;
  /** Header names in lower case; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** Each Set-Cookie header apart (an Expires date holds a comma); empty where the engine cannot read them. */
  setCookie: string[];
  /** The body, chunk by chunk; read it once, either this way or with `text()`. */
  body: AsyncIterable<Uint8Array>;
  text(): Promise<string>;
}

/** Which engine a client uses: `undici` (Node's default) or `fetch` (browsers' only one). */
export type TransportKind = 'undici' | 'fetch';
