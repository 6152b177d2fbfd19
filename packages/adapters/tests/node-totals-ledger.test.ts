import { runNodeTotalsLedgerContract } from './contracts/node-totals-ledger.contract.js';
import { describeOnEveryStorage } from './support/every-storage.js';

describeOnEveryStorage('NodeTotalsLedger contract', runNodeTotalsLedgerContract);
