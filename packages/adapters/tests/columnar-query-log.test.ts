import { runQueryLogCountsContract } from './contracts/query-log-counts.contract.js';
import { runQueryLogDecidedByContract } from './contracts/query-log-decided-by.contract.js';
import { runQueryLogEraserContract } from './contracts/query-log-eraser.contract.js';
import { runQueryLogLocalBucketsContract } from './contracts/query-log-local-buckets.contract.js';
import { runQueryLogReaderContract } from './contracts/query-log-reader.contract.js';
import { describeOnEveryColumnarStore } from './support/every-columnar-store.js';

// One file, so that the embedded chdb is opened once for every query-log contract.
describeOnEveryColumnarStore('QueryLogReader contract', runQueryLogReaderContract);
describeOnEveryColumnarStore('EdgeLogWriter counts and DeviceCounts contract', runQueryLogCountsContract);
describeOnEveryColumnarStore('QueryLogEraser contract', runQueryLogEraserContract);
describeOnEveryColumnarStore(
  'QueryLogReader timeline in a time zone (ADR 0045)',
  runQueryLogLocalBucketsContract,
);
describeOnEveryColumnarStore('QueryLogReader decided_by (ADR 0045)', runQueryLogDecidedByContract);
