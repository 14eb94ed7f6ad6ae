/**
 * Batches work per key (docs/decisions.md, "The checkout's statements are batched"). While a batch
 * of a key is running, the requests that arrive for it wait, and go together in the next batch: at
 * rest a request runs alone and at once; in a rush one database round trip serves up to `max`
 * requests instead of one each. A request never joins a batch that started before it arrived, so
 * what it reads is as fresh as if it had run alone. Requests run in the order they arrived.
 *
 * `run` answers one result per request, in order. When a batch of several fails, each of its
 * requests runs again on its own, so that one bad request cannot fail the others.
 */
export type Batcher<Req, Res> = {
  submit(key: string, request: Req): Promise<Res>;
  /** How many requests of the key wait for the batch under way to end (for tests). */
  waiting(key: string): number;
};

type Waiting<Req, Res> = { request: Req; resolve: (r: Res) => void; reject: (e: unknown) => void };

export function createBatcher<Req, Res>(run: (key: string, batch: Req[]) => Promise<Res[]>, max = 64): Batcher<Req, Res> {
  const queues = new Map<string, Array<Waiting<Req, Res>>>();

  const runChecked = async (key: string, requests: Req[]): Promise<Res[]> => {
    const results = await run(key, requests);
    if (results.length !== requests.length) throw new Error(`batch answered ${results.length} results for ${requests.length} requests`);
    return results;
  };

  async function drain(key: string, queue: Array<Waiting<Req, Res>>): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0, max);
      try {
        const results = await runChecked(
          key,
          batch.map((w) => w.request),
        );
        batch.forEach((w, i) => w.resolve(results[i]!));
      } catch (err) {
        if (batch.length === 1) {
          batch[0]!.reject(err);
          continue;
        }
        for (const w of batch) {
          try {
            w.resolve((await runChecked(key, [w.request]))[0]!);
          } catch (own) {
            w.reject(own);
          }
        }
      }
    }
    queues.delete(key);
  }

  return {
    // The batch under way was spliced off its queue: what is left waits for it.
    waiting: (key) => queues.get(key)?.length ?? 0,
    submit(key, request) {
      let queue = queues.get(key);
      const idle = !queue;
      if (!queue) queues.set(key, (queue = []));
      const result = new Promise<Res>((resolve, reject) => queue.push({ request, resolve, reject }));
      if (idle) void drain(key, queue);
      return result;
    },
  };
}
