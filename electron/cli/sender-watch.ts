// `sift service` says once, while it runs, when mail servers start refusing its sending address (and
// again if that ends and comes back): a person watching the terminal learns that the run is wasted.
import type { SqlConnection } from '../core/storage/sql-connection.ts';
import type { ServiceConfig } from '../core/service/service-config.ts';
import { senderFinding } from '../core/service/store/sender-refusals-store.ts';
import { describeRefusedSender, senderField } from '../core/service/engines/live/sender-refusal.ts';

const everyMs = 5000;

export function watchSender(db: SqlConnection, config: ServiceConfig, out: (line: string) => void): () => void {
  let told = false;
  const look = async () => {
    const finding = await senderFinding(db, config.now(), config.smtp.blockedAfterHosts);
    if (finding.state !== 'refused') return void (told = false);
    if (told) return;
    told = true;
    out(describeRefusedSender(senderField(finding))!);
  };
  const timer = setInterval(() => void look().catch(() => undefined), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
