import { sdkAgainstFaults } from './sdk-reliability/sdk-reliability.faults.js';
import { sdkOnTheRealServer } from './sdk-reliability/sdk-reliability.real-server.js';

// The SDK's reliability, one behaviour a module under sdk-reliability/, in one file so that the SDK and the
// server are imported once.
sdkAgainstFaults();
sdkOnTheRealServer();
