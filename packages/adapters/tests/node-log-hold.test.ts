import { runNodeLogHoldContract } from './contracts/node-log-hold.contract.js';
import { describeOnEveryStorage } from './support/every-storage.js';

describeOnEveryStorage('NodeLogHoldStore contract', runNodeLogHoldContract);
