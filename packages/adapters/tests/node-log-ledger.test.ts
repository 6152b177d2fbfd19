import { runNodeLogLedgerContract } from './contracts/node-log-ledger.contract.js';
import { describeOnEveryStorage } from './support/every-storage.js';

describeOnEveryStorage('NodeLogBatchLedger contract', runNodeLogLedgerContract);
