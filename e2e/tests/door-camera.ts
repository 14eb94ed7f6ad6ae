import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, expect, type Browser } from '@playwright/test';
import { ADMIN, mailsTo, platformOrigin, signIn } from './support';

// A door phone's camera for browser tests (issue 11, shared by the check-in and transfer specs): the
// buyer's real ticket PDF rendered to a video that Chromium's fake camera plays.

/** The tickets PDF attached to the buyer's confirmation mail, as the platform's outbox holds it. */
export async function ticketsPdf(baseURL: string, email: string): Promise<Buffer> {
  const admin = await signIn(platformOrigin(baseURL), ADMIN);
  try {
    let url = '';
    await expect
      .poll(async () => {
        url = (await mailsTo(admin, email)).find((m) => m.details.attachments.length > 0)?.details.attachments[0]?.url ?? '';
        return url;
      }, { timeout: 30_000 })
      .not.toBe('');
    return await (await admin.ctx.get(url)).body();
  } finally {
    await admin.ctx.dispose();
  }
}

/**
 * A Y4M video (what Chromium's fake camera plays) of the PDF's first page: pdftoppm renders it in
 * grey (PGM), which is the Y plane; U and V stay neutral. The page is padded to even sides.
 */
export function pdfToY4m(pdf: Buffer, dir: string): string {
  const pdfPath = path.join(dir, 'ticket.pdf');
  writeFileSync(pdfPath, pdf);
  execFileSync('pdftoppm', ['-r', '110', '-gray', '-singlefile', '-f', '1', '-l', '1', pdfPath, path.join(dir, 'ticket')]);
  const pgm = readFileSync(path.join(dir, 'ticket.pgm'));
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 64).toString('latin1'))!;
  const [w, h] = [Number(header[1]), Number(header[2])];
  const pixels = pgm.subarray(header[0].length);
  const W = w + (w % 2);
  const H = h + (h % 2);
  const y = Buffer.alloc(W * H, 255);
  for (let row = 0; row < h; row++) pixels.copy(y, row * W, row * w, row * w + w);
  const uv = Buffer.alloc((W / 2) * (H / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, uv]);
  const out = path.join(dir, 'ticket.y4m');
  writeFileSync(out, Buffer.concat([Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`), ...Array.from({ length: 10 }, () => frame)]));
  return out;
}

export async function phoneBrowserWithCamera(video: string): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
}
