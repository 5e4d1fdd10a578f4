// Help where people type it: `sift <command> --help` and `sift help <command>` print the same usage with
// examples for every command, and an option a command does not know is named, with that command's help.
// Each command through `sift`'s own main in this process; the first case also as a process of its own.
import { describe, expect, it } from 'vitest';
import { runSift } from '../../support/run-sift.ts';
import { runSiftHere } from '../../support/run-sift-here.ts';

const commands = ['clean', 'verify', 'cache', 'suppress', 'service', 'app', 'help'];

describe('sift help', () => {
  it.each(commands)('sift %s --help and sift help (the command) print its usage and examples', async (command) => {
    const flag = await runSiftHere([command, '--help']);
    const asked = await runSiftHere(['help', command]);
    expect(flag.code).toBe(0);
    expect(flag.stdout).toMatch(/^Usage:/);
    expect(flag.stdout).toMatch(/\nExamples:\n {2}sift/);
    expect(flag.stdout).toContain(command === 'app' ? 'sift [app]' : `sift ${command}`);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toBe(flag.stdout);
  });

  it.each(commands.filter((command) => command !== 'help'))(
    'names an unknown option of sift %s and points at its help, never Node’s words',
    async (command) => {
      const run = await runSiftHere([command, '--nope']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`sift ${command}: unknown option --nope. See sift ${command} --help.`);
      expect(run.stderr).not.toContain('To specify a positional argument');
    },
  );

  it('prints the same from a process of its own, and exits 2 on a mistake', async () => {
    expect(await runSift(['clean', '--help'], {})).toMatchObject({
      code: 0,
      stdout: (await runSiftHere(['clean', '--help'])).stdout,
    });
    const mistake = await runSift(['clean', '--nope'], {});
    expect(mistake.code).toBe(2);
    expect(mistake.stderr).toBe((await runSiftHere(['clean', '--nope'])).stderr);
  });

  it('lists the commands for sift --help, and names a command that does not exist', async () => {
    const overview = await runSiftHere(['--help']);
    expect(overview.code).toBe(0);
    for (const command of ['clean', 'verify', 'cache', 'suppress', 'service'])
      expect(overview.stdout).toContain(`sift ${command}`);
    const wrong = await runSiftHere(['clena', 'list.csv']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('sift: no command "clena".');
    const missing = await runSiftHere(['service', '--port']);
    expect(missing.stderr).toContain('sift service: --port needs a value. See sift service --help.');
  });
});
