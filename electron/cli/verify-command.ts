// `sift verify <email>`: one address, now. Bad syntax is answered here without a call.
import { parseArgs } from 'node:util';
import { privateDataDir } from './data-folder.ts';
import { precheckAddress } from '../core/email/address-precheck.ts';
import { CliExit, exitCodes, exitFor, type CliIo } from './cli-io.ts';
import { connect, type Connection } from './service-connection.ts';
import { demoVerdictsNote } from '../common/demo-verdicts.ts';

export const verifyUsage = 'sift verify <email> [--base-url URL] [--json]';

export async function runVerify(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { 'base-url': { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  if (positionals.length !== 1) throw new CliExit(exitCodes.usage, `Usage: ${verifyUsage}`);
  const check = precheckAddress(positionals[0]!);
  let verdict: { email: string; result: string; billed: boolean; reason?: string; suggestion?: string; demo?: true };
  if (!check.ok) {
    verdict = { email: positionals[0]!.trim(), result: 'invalid', billed: false, reason: check.reason };
  } else {
    let connection: Connection;
    try {
      connection = connect(values['base-url'], io, privateDataDir(io));
    } catch (error) {
      throw exitFor(error);
    }
    try {
      const client = await connection.start();
      const answer = await client.verify(check.address, { signal: io.signal });
      verdict = {
        ...answer,
        ...(check.suggestion ? { suggestion: check.suggestion } : {}),
        // A sandbox key's verdict is scripted: said in the line itself and in the JSON, never left to guess.
        ...(connection.mode === 'sandbox' ? { demo: true as const } : {}),
      };
    } catch (error) {
      throw exitFor(error);
    } finally {
      await connection.close();
    }
  }
  if (values.json) io.out(`${JSON.stringify(verdict)}\n`);
  else {
    const reason = verdict.demo
      ? ` (demo${verdict.reason ? `: ${verdict.reason}` : ''})`
      : verdict.reason
        ? ` (${verdict.reason})`
        : '';
    const suggestion = verdict.suggestion ? `; did you mean ${verdict.suggestion}?` : '';
    io.out(`${verdict.email}: ${verdict.result}${reason}${suggestion}\n`);
    if (verdict.demo) io.err(`${demoVerdictsNote}\n`);
  }
  return exitCodes.done;
}
