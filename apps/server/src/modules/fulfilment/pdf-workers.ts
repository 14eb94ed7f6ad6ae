import { availableParallelism } from 'node:os';
import type { Composed, Composer } from '../../platform/mail.js';
import type { PdfAndMail, TicketDocument } from './pdf.js';

// The ticket PDFs on worker threads (issue 26 "From payment to ticket mail"): a PDF is about 10 to
// 20 ms of CPU (text layout, the fonts' subsets, the QR code), and a sale pays hundreds of orders a
// minute. Built on the thread that also answers the requests and runs the jobs, they queued the
// payments' confirmations and the mails behind them, on one core of the machine's two. Here they
// run on PDF_WORKERS threads of their own (piscina's pool; the default 1), the same code
// (renderTicketsPdfHere), each thread with its own parsed fonts; PDF_WORKERS=0 builds them inline.
// The pool is the process's (like the parsed fonts): started by the first PDF after usePdfWorkers,
// and stopped by closePdfWorkers (the app's onClose), which lets a later PDF start it again.

type Render = (d: TicketDocument) => Promise<Buffer>;
type Pool = { run(task: unknown, opts?: { name?: string }): Promise<any>; destroy(): Promise<void>; completed: number; threads: unknown[] };

let wanted = 0;
let pool: Promise<Pool> | undefined;

/** How many PDF worker threads this process runs (0: none, PDFs are built on the calling thread). */
export function usePdfWorkers(threads: number) {
  wanted = Math.max(0, Math.min(threads, availableParallelism()));
}

/** Ends the worker threads; PDFs already asked for are still answered. */
export async function closePdfWorkers() {
  const closing = pool;
  pool = undefined;
  if (closing) await (await closing).destroy();
}

/** The worker file beside this module: the compiled bundle's (dist/pdf-worker.js) or, run from the sources, the TypeScript one through tsx. */
function workerFile() {
  const fromSources = import.meta.url.endsWith('.ts');
  return {
    filename: new URL(fromSources ? './pdf-worker.ts' : './pdf-worker.js', import.meta.url).href,
    execArgv: fromSources ? ['--import', 'tsx'] : [],
  };
}

async function startPool(): Promise<Pool> {
  const { Piscina } = await import('piscina');
  const { filename, execArgv } = workerFile();
  return new Piscina({ filename, execArgv, minThreads: wanted, maxThreads: wanted, idleTimeout: 60_000 }) as unknown as Pool;
}

/** The started pool; when its threads could not start, undefined for the next tasks. */
async function started(current: Promise<Pool>): Promise<Pool> {
  try {
    return await current;
  } catch (err) {
    // The threads could not start (a build without dist/pdf-worker.js): this task fails with the
    // reason (its job retries), and the next PDFs are built inline rather than never.
    if (pool === current) pool = undefined;
    wanted = 0;
    throw err;
  }
}

/** The pool's render, or undefined when PDFs are built inline. */
export function pdfPool(): Render | undefined {
  if (wanted === 0) return undefined;
  const current = (pool ??= startPool());
  return async (d) => {
    // Dates and bytes cross to the thread by structured clone; the answer comes back as bytes.
    const bytes = await (await started(current)).run(d);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  };
}

/**
 * A PDF and the mail that carries it built in one task on the pool (issue 26 "mail3": one hand-over
 * to a thread and back instead of two, the PDF's bytes never crossing back to be sent again), or
 * undefined when PDFs are built inline.
 */
export function pdfAndMailPool(): ((t: PdfAndMail) => Promise<{ pdf: Buffer; composed: Composed | null }>) | undefined {
  if (wanted === 0) return undefined;
  const current = (pool ??= startPool());
  return async (t) => {
    const out = (await (await started(current)).run(t, { name: 'renderAndCompose' })) as { pdf: Uint8Array; composed: Composed | null };
    return { pdf: Buffer.from(out.pdf.buffer, out.pdf.byteOffset, out.pdf.byteLength), composed: out.composed };
  };
}

/**
 * The mails' MIME sources built on the same threads (issue 26 "mail2": nodemailer's composing and
 * encoding was a share of a ticket mail's main-thread CPU), or null when PDFs are built inline.
 * The mailer (platform/mail.ts composeWith) calls it for each message it sends through SMTP.
 */
export function mailComposer(): Composer | null {
  if (wanted === 0) return null;
  return async (mail) => {
    const started = await (pool ??= startPool());
    return started.run(mail, { name: 'composeMail' });
  };
}

/** What the pool did (tests, and a look during a bench): its threads and the PDFs they built; undefined when it is not running. */
export async function pdfWorkerStats(): Promise<{ threads: number; completed: number } | undefined> {
  if (!pool) return undefined;
  const p = await pool;
  return { threads: p.threads.length, completed: p.completed };
}
