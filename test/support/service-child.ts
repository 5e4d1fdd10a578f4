// Runs the embedded service in its own process, for tests that kill it or measure its memory.
// argv[2]: JSON config overrides (must include dataDir). Prints `READY <baseUrl>` when listening.
import { startVerificationService } from '../../electron/core/service/verification-service.ts';
import { sandboxEngine } from '../../electron/core/service/sandbox-verdicts.ts';

// Live keys get scripted verdicts: these tests kill the service, they do not talk to mail servers.
const service = await startVerificationService(JSON.parse(process.argv[2]!), sandboxEngine);
console.log(`READY ${service.baseUrl}`);
