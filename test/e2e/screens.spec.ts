// The screens in the colour schemes and window sizes `npm test` does not sweep (appearance.spec.ts sweeps
// dark at 800x600): screenshots to look at, and no serious accessibility violation (`npm run test:screens`).
import { test } from './web-host-fixture.ts';
import { sweepName, sweepScreens, type Sweep } from './screen-sweep.ts';

const sweeps: Sweep[] = [
  { colorScheme: 'light', viewport: { width: 1280, height: 800 } },
  { colorScheme: 'light', viewport: { width: 800, height: 600 } },
  { colorScheme: 'dark', viewport: { width: 1280, height: 800 } },
];

for (const sweep of sweeps) {
  test(sweepName(sweep), ({ page, hostUrl }) => sweepScreens(page, hostUrl, sweep));
}
