// What one ticket's PDF costs (issue 26 "mail"): renders BENCH_PDFS (200) one-ticket PDFs in a row on
// this thread (as a PDF worker does) after a warm-up, and prints the CPU of the process per PDF and
// the file's size, for a Latin name (set in the standard fonts) and a non-Latin one (DejaVu embedded).
//   npx tsx bench/pdf-cost.ts
import { signTicketCode } from '../apps/server/src/modules/checkin/ticket-code.js';
import { renderTicketsPdfHere, type TicketDocument } from '../apps/server/src/modules/fulfilment/pdf.js';

const N = Number(process.env.BENCH_PDFS ?? 200);
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
const doc = (i: number, fullName: string): TicketDocument => {
  const ticketUid = `T${String(i).padStart(25, '0')}`;
  return {
    event,
    orderUid: `MBENCH${String(i).padStart(5, '0')}`,
    tickets: [{ ticketUid, code: signTicketCode('bench-secret-bench-secret-bench-secret-01', '3f2504e0-4f89-41d3-9a0c-0305e82c3301', ticketUid), ticketTypeName: 'General Admission', price: 1000, fullName }],
  };
};
for (const fullName of process.env.BENCH_PDF_NAME ? [process.env.BENCH_PDF_NAME] : ['Ada Lovelace', 'Łukasz Анна']) {
  for (let i = 0; i < 20; i++) await renderTicketsPdfHere(doc(i, fullName));
  const cpu0 = process.cpuUsage();
  let bytes = 0;
  for (let i = 0; i < N; i++) bytes += (await renderTicketsPdfHere(doc(i, fullName))).length;
  const cpu = process.cpuUsage(cpu0);
  console.log(`${fullName.padEnd(14)} ${((cpu.user + cpu.system) / 1000 / N).toFixed(2)} ms CPU per one-ticket PDF, ${(bytes / N / 1024).toFixed(1)} kB (${N} PDFs)`);
}
