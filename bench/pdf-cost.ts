// What a ticket PDF costs (issue 26 "mail", "pdf4"): renders BENCH_PDFS (200) PDFs in a row on this
// thread (as a PDF worker does) after a warm-up, and prints the CPU of the process per PDF and the
// file's size, for a Latin name (set in the standard fonts) and a non-Latin one (DejaVu embedded),
// of one ticket and of four (BENCH_PDF_TICKETS: "1,4"). Beside them, the same run's reference: the CPU
// of a fixed piece of work (deflating and hashing the same 64 kB, no code of ours), so that figures
// taken at different loads compare by their ratio to it.
//   npx tsx bench/pdf-cost.ts
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { signTicketCode } from '../apps/server/src/modules/checkin/ticket-code.js';
import { renderTicketsPdfHere, type TicketDocument } from '../apps/server/src/modules/fulfilment/pdf.js';

const N = Number(process.env.BENCH_PDFS ?? 200);
const COUNTS = (process.env.BENCH_PDF_TICKETS ?? '1,4').split(',').map(Number);
const event: TicketDocument['event'] = {
  name: 'Summer Jam',
  startDateTime: new Date(Date.now() + 30 * 86400_000),
  timeZone: 'America/New_York',
  venueName: 'The Hall',
  address1: '10 Main St',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  country: 'USA',
  emailDeliveryVerbiage: 'Doors open one hour before the show.',
};
const doc = (i: number, fullName: string, count: number): TicketDocument => ({
  event,
  orderUid: `MBENCH${String(i).padStart(5, '0')}`,
  tickets: Array.from({ length: count }, (_, k) => {
    const ticketUid = `T${String(i * 10 + k).padStart(25, '0')}`;
    const code = signTicketCode('bench-secret-bench-secret-bench-secret-01', '3f2504e0-4f89-41d3-9a0c-0305e82c3301', ticketUid);
    return { ticketUid, code, ticketTypeName: 'General Admission', price: 1000, fullName };
  }),
});

const sample = Buffer.from(Array.from({ length: 65536 }, (_, i) => (i * 2654435761) >>> 24));
/** CPU ms of the reference work (deflate and SHA-256 of the same 64 kB, 50 times). */
function reference(): number {
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < 50; i++) createHash('sha256').update(deflateSync(sample)).digest();
  const cpu = process.cpuUsage(cpu0);
  return (cpu.user + cpu.system) / 1000;
}

for (const count of COUNTS) {
  for (const fullName of process.env.BENCH_PDF_NAME ? [process.env.BENCH_PDF_NAME] : ['Ada Lovelace', 'Łukasz Анна']) {
    for (let i = 0; i < 20; i++) await renderTicketsPdfHere(doc(i, fullName, count));
    // Codes are signed before the clock starts: what is measured is the PDF.
    const docs = Array.from({ length: N }, (_, i) => doc(i, fullName, count));
    const ref0 = reference();
    const cpu0 = process.cpuUsage();
    let bytes = 0;
    for (const d of docs) bytes += (await renderTicketsPdfHere(d)).length;
    const cpu = process.cpuUsage(cpu0);
    const ref = (ref0 + reference()) / 2;
    const ms = (cpu.user + cpu.system) / 1000 / N;
    console.log(
      `${fullName.padEnd(14)} ${count} ticket${count === 1 ? ' ' : 's'}  ${ms.toFixed(2)} ms CPU per PDF, ${(bytes / N / 1024).toFixed(1)} kB (${N} PDFs)` +
        `   reference ${ref.toFixed(1)} ms (PDF/reference ${(ms / ref).toFixed(3)})`,
    );
  }
}
