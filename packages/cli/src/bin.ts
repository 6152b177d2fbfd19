#!/usr/bin/env node
import { CommanderError } from 'commander';
import { ExitCode } from './output.js';
import { createProgram } from './program.js';

// A reader that stops early (`svc --help | head`) closes the pipe: nothing more can be shown, which is no
// failure of the command, so stop quietly instead of dying of an unhandled EPIPE.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(ExitCode.ok);
});

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
