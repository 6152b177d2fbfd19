import { runListReportsSuite } from './list-reports.suite.js';

runListReportsSuite('memory');
