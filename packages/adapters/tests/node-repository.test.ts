import { runNodeRepositoryContract } from './contracts/node-repository.contract.js';
import { describeOnEveryStorage } from './support/every-storage.js';

describeOnEveryStorage('NodeRepository contract', runNodeRepositoryContract);
