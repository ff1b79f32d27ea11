/** The webhook deliveries in GET /metrics: how many are in each state, and how many are due now (their queue). */
import { type Database, type ServiceGauges, sqlOf } from 'loadplane/plugin';

const states = ['waiting', 'delivered', 'failed'];

export function deliveryGauges(db: Database): ServiceGauges {
  return {
    name: 'notify-webhook',
    async read() {
      const sql = sqlOf(db);
      const [byState, [due]] = await Promise.all([
        sql.all<{ state: string; n: number | string }>('select state, count(*) as n from webhook_deliveries group by state'),
        sql.all<{ n: number | string }>("select count(*) as n from webhook_deliveries where state = 'waiting' and next_attempt_at <= now()"),
      ]);
      const counts = new Map(states.map((state) => [state, 0]));
      for (const row of byState) counts.set(row.state, Number(row.n));
      return {
        gauges: [{ name: 'loadplane_webhook_deliveries', help: 'webhook deliveries by state', samples: [...counts].map(([state, n]) => [{ state }, n]) }],
        queues: { webhook_deliveries: Number(due!.n) },
      };
    },
  };
}
