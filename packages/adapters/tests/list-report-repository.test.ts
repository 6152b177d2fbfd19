import { runListReportRepositoryContract } from './contracts/list-report-repository.contract.js';
import { describeOnEveryStorage } from './support/every-storage.js';

describeOnEveryStorage('ListReportRepository contract', runListReportRepositoryContract);
