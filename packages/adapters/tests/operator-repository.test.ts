import { runOperatorRepositoryContract } from './contracts/operator-repository.contract.js';
import { describeOnEveryStorage } from './support/every-storage.js';

describeOnEveryStorage('OperatorRepository contract', runOperatorRepositoryContract);
