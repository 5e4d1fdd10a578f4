// Every skipped test named at the end of a vitest run, with why: a suite that turns green because a tool is
// missing says so. The skips a project expects (test/tiers.ts's expectedSkips) are listed with their reason;
// any other is "not expected", and with SIFT_UNEXPECTED_SKIPS=fail (as .ci/run sets) it fails the run.
import type { Reporter, TestModule } from 'vitest/node';
import { expectedSkips } from '../tiers.ts';

export default class SkipReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const expected: string[] = [];
    const unexpected: string[] = [];
    for (const module of testModules) {
      const file = module.relativeModuleId;
      const project = module.project.name;
      // A file that failed (its setup, say) has its tests skipped: the failure is what the run reports.
      const skipped = module.state() === 'failed' ? [] : [...module.children.allTests('skipped')];
      if (skipped.length === 0) continue;
      const known = expectedSkips.find((skip) => skip.project === project && skip.file === file);
      if (known) expected.push(`  ${file} (${skipped.length}, ${project}): ${known.why}`);
      else for (const test of skipped) unexpected.push(`  ${file} (${project}): ${test.fullName}`);
    }
    if (expected.length > 0) console.log(`\nSkipped, as expected:\n${expected.join('\n')}`);
    if (unexpected.length === 0) return;
    console.log(`\nSkipped, not expected (a tool missing, or not root?):\n${unexpected.join('\n')}`);
    if (process.env.SIFT_UNEXPECTED_SKIPS === 'fail') {
      console.log('SIFT_UNEXPECTED_SKIPS=fail: the run fails on a skip test/tiers.ts does not expect.');
      process.exitCode = 1;
    }
  }
}
