// Runs the embedded service in its own process, for tests that kill it, measure its memory, or run
// several processes on one database. argv[2]: JSON config overrides (must include dataDir); argv[3]: the
// role (all, api or worker; all when absent); argv[4]: the live keys' engine (sandbox, the default, or
// smtp). Prints `READY <baseUrl> <processId>` when listening, or `READY worker <processId>` for a worker.
import { sandboxEngine } from '../../electron/core/service/engines/sandbox-engine.ts';
import { startServiceWorkers, startVerificationService } from '../../electron/core/service/verification-service.ts';

const [config, role = 'all', engine = 'sandbox'] = process.argv.slice(2);
// Live keys get scripted verdicts unless the test brings mail servers: most of these tests kill the
// service, they do not talk to mail servers.
const liveEngine = engine === 'smtp' ? 'smtp' : sandboxEngine;
if (role === 'worker') {
  const workers = await startServiceWorkers(JSON.parse(config!), liveEngine);
  console.log(`READY worker ${workers.processId}`);
} else {
  const service = await startVerificationService(JSON.parse(config!), liveEngine, role === 'api' ? 'api' : 'all');
  console.log(`READY ${service.baseUrl} ${service.processId}`);
}
