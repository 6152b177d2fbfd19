import { runDataExportRepositoryContract } from './contracts/data-export-repository.contract.js';
import { describeOnEveryStorage } from './support/every-storage.js';

describeOnEveryStorage('DataExportRepository contract', runDataExportRepositoryContract);
