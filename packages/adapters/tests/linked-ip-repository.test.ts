import { runLinkedIpRepositoryContract } from './contracts/linked-ip-repository.contract.js';
import { describeOnEveryStorage } from './support/every-storage.js';

describeOnEveryStorage('LinkedIpRepository contract', runLinkedIpRepositoryContract);
