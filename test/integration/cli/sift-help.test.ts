// Help where people type it: `sift <command> --help` and `sift help <command>` print the same usage with
// examples for every command, and an option a command does not know is named, with that command's help.
import { describe, expect, it } from 'vitest';
import { runSift } from '../../support/run-sift.ts';

const commands = ['clean', 'verify', 'cache', 'suppress', 'service', 'app', 'help'];

describe('sift help', () => {
  it.each(commands)('sift %s --help and sift help (the command) print its usage and examples', async (command) => {
    const flag = await runSift([command, '--help'], {});
    const asked = await runSift(['help', command], {});
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
      const run = await runSift([command, '--nope'], {});
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`sift ${command}: unknown option --nope. See sift ${command} --help.`);
      expect(run.stderr).not.toContain('To specify a positional argument');
    },
  );

  it('lists the commands for sift --help, and names a command that does not exist', async () => {
    const overview = await runSift(['--help'], {});
    expect(overview.code).toBe(0);
    for (const command of ['clean', 'verify', 'cache', 'suppress', 'service'])
      expect(overview.stdout).toContain(`sift ${command}`);
    const wrong = await runSift(['clena', 'list.csv'], {});
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('sift: no command "clena".');
    const missing = await runSift(['service', '--port'], {});
    expect(missing.stderr).toContain('sift service: --port needs a value. See sift service --help.');
  });
});
