// Every screen in each colour scheme and window size: screenshots to look at, and no serious accessibility
// violation (`npm run test:screens`, which CI runs). The sweep is slow by nature, so npm test leaves it here;
// dark at 800x600 comes first, the scheme and size with the least contrast and room to spare.
import { test } from './web-host-fixture.ts';
import { sweepName, sweepScreens, type Sweep } from './screen-sweep.ts';

const sweeps: Sweep[] = [
  { colorScheme: 'dark', viewport: { width: 800, height: 600 } },
  { colorScheme: 'light', viewport: { width: 1280, height: 800 } },
  { colorScheme: 'light', viewport: { width: 800, height: 600 } },
  { colorScheme: 'dark', viewport: { width: 1280, height: 800 } },
];

for (const sweep of sweeps) {
  test(sweepName(sweep), ({ page, hostUrl }) => sweepScreens(page, hostUrl, sweep));
}
