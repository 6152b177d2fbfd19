import { beforeAll } from 'vitest';
import { svcBuilt } from '../../support/cli-process.js';
import { simulateOnEachBackend } from './simulate.backends.js';
import { simulateThroughTheCli } from './simulate.cli.js';

// Every `svc` here is the compiled CLI, rebuilt first when a source is newer than its build.
beforeAll(svcBuilt, 240_000);

simulateOnEachBackend();
simulateThroughTheCli();
