import { versionOfEtag } from './etag.js';
import type { ApiResponse } from './transport.js';

/** An answer with its HTTP facts: status, headers, request id, and the ETag of a versioned resource. */
export interface ApiResult<T> extends ApiResponse<T> {
  /** The ETag header (`"7"`), on answers of versioned resources; send it back as `ifMatch`. */
  etag: string | undefined;
  /** The version the ETag names, or undefined without one. */
  version: number | undefined;
}

/**
 * The promise of an API call's data, which can also give the whole answer: `await call` is the data, `await
 * call.withResponse()` adds status, headers, request id and ETag (as openai-node does). Versioned answers
 * whose body does not carry the version (rules, lists) are read this way.
 */
export class ApiPromise<T> extends Promise<T> {
  /** Derived promises (`then`, `catch`, `finally`) are plain ones: only the call itself has withResponse. */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  private readonly answer: Promise<ApiResponse<T>>;

  constructor(answer: Promise<ApiResponse<T>>) {
    super((resolve, reject) => {
      answer.then((response) => resolve(response.data), reject);
    });
    this.answer = answer;
  }

  /** The whole answer. The data promise is marked handled, so a failure surfaces here only. */
  async withResponse(): Promise<ApiResult<T>> {
    this.catch(() => undefined);
    const response = await this.answer;
    const etag = response.headers.etag;
    return { ...response, etag, version: versionOfEtag(etag) };
  }
}
