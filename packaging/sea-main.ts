// The single executable's entry: `sift` with the arguments it was given, as `electron/cli/sift.ts` runs
// from source. With none (a double-click), that is the app in the default browser.
import { runSiftProcess } from '../electron/cli/sift.ts';

// INIT_CWD is where a person typed `npm run sift`, which runs from the project folder; this file is run
// where it is typed, so a folder npm left in the environment (a script that calls it) must not count.
delete process.env.INIT_CWD;
// Node puts the executable's path in argv[1] too; the arguments follow it.
void runSiftProcess(process.argv.slice(2));
