// Vitest's order, with the files that take longest started first (tiers.ts's `startFirst`), whether or not
// this clone has run them before.
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { relative } from 'node:path';
import { startFirst } from '../tiers.ts';

export default class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = startFirst.indexOf(relative(spec.project.config.root, spec.moduleId));
      return at === -1 ? startFirst.length : at;
    };
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
