import { runQueryLogCountsContract } from './contracts/query-log-counts.contract.js';
import { runQueryLogEraserContract } from './contracts/query-log-eraser.contract.js';
import { runQueryLogReaderContract } from './contracts/query-log-reader.contract.js';
import { describeOnEveryColumnarStore } from './support/every-columnar-store.js';

// One file, so that the embedded chdb is opened once for the three contracts.
describeOnEveryColumnarStore('QueryLogReader contract', runQueryLogReaderContract);
describeOnEveryColumnarStore('EdgeLogWriter counts and DeviceCounts contract', runQueryLogCountsContract);
describeOnEveryColumnarStore('QueryLogEraser contract', runQueryLogEraserContract);
