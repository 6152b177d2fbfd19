import { runLinkedIpsSuite } from './linked-ips.suite.js';

runLinkedIpsSuite('memory');
