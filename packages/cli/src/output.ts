import { CommanderError } from 'commander';

/** Exit codes of every svc command (part of the CLI contract, RUNNER.md). */
export const ExitCode = { ok: 0, apiError: 1, usage: 2 } as const;

/** Where a command writes: human lines or one JSON document, chosen by the caller, never read from argv here. */
export interface Output {
  json: boolean;
  line(text: string): void;
  error(text: string): void;
  result(value: unknown, human: () => string): void;
}

/** Output on the process streams. */
export function processOutput(json: boolean): Output {
  return {
    json,
    line: (text) => process.stdout.write(`${text}\n`),
    error: (text) => process.stderr.write(`${text}\n`),
    result: (value, human) => process.stdout.write(`${json ? JSON.stringify(value) : human()}\n`),
  };
}

/** A usage error: printed, then exit code 2 through the program's exit override. */
export function usageError(message: string): never {
  process.stderr.write(`svc: ${message}\n`);
  throw new CommanderError(ExitCode.usage, 'svc.usage', message);
}
