#!/usr/bin/env node
import { CommanderError } from 'commander';
import { ExitCode } from './output.js';
import { createProgram } from './program.js';

try {
  await createProgram().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  } else {
    process.stderr.write(`svc: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = ExitCode.apiError;
  }
}
