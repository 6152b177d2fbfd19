import { runNodeAlertContract } from './contracts/node-alerts.contract.js';
import { describeOnEveryStorage } from './support/every-storage.js';

describeOnEveryStorage('NodeRepository alerts contract', runNodeAlertContract);
