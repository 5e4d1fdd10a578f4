// What every `sift` command shares: its input and output, and how a failure becomes an exit code.
// Exit codes: 0 done; 2 bad usage or unusable input; 3 key refused; 4 out of credits; 5 the batch failed
// or was canceled, or the service stayed unreachable; 6 an output could not be written (the job is kept:
// run the same command again to write it, nothing is sent twice); 7 the data folder was written by a newer
// Sift (left as it is); 130 stopped by Ctrl-C.
import { AppError } from '../common/app-error.ts';
import { ServiceClientError } from '../core/client/client-errors.ts';
import { CostNotCovered } from '../core/jobs/run/index.ts';

export const exitCodes = {
  done: 0,
  usage: 2,
  authentication: 3,
  credits: 4,
  service: 5,
  output: 6,
  newerData: 7,
  interrupted: 130,
} as const;

export class CliExit extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

export type CliIo = {
  out(text: string): void;
  err(text: string): void;
  /** True when stderr is a terminal: progress is drawn only there. */
  interactive: boolean;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
};

export function exitFor(error: unknown): CliExit {
  if (error instanceof CliExit) return error;
  if (error instanceof CostNotCovered) return new CliExit(exitCodes.credits, error.message);
  if (error instanceof AppError) {
    return new CliExit(error.code === 'unwritable' ? exitCodes.output : exitCodes.usage, error.message);
  }
  if (error instanceof ServiceClientError) {
    if (error.kind === 'authentication') return new CliExit(exitCodes.authentication, error.message);
    if (error.kind === 'payment') return new CliExit(exitCodes.credits, error.message);
    if (error.kind === 'configuration' || error.kind === 'bad_request')
      return new CliExit(exitCodes.usage, error.message);
    return new CliExit(exitCodes.service, error.message);
  }
  if (error instanceof Error && error.name === 'AbortError') return new CliExit(exitCodes.interrupted, 'Stopped.');
  return new CliExit(exitCodes.service, error instanceof Error ? error.message : String(error));
}
