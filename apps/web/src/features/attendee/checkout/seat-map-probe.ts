// spec: reports-payouts-checkout §7: {event site}/{eventName}/assets/seatmap.{png|jpg|jpeg|gif},
// probed in that order; the first valid image wins (image content type, nonzero size, within 5 s).
export const SEATMAP_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif'] as const;
export const SEATMAP_PROBE_TIMEOUT_MS = 5000; // spec §9 image probe timeout 5 s

export type SeatMapImage = { url: string; file: string };

async function probeOne(url: string, outer: AbortSignal): Promise<Blob | null> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  outer.addEventListener('abort', abort);
  const timer = setTimeout(abort, SEATMAP_PROBE_TIMEOUT_MS);
  try {
    const res = await fetch(url, { signal: controller.signal, credentials: 'same-origin' });
    if (!res.ok) return null;
    const type = (res.headers.get('content-type') ?? '').toLowerCase();
    if (!type.startsWith('image/')) return null;
    const blob = await res.blob();
    return blob.size > 0 ? blob : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', abort);
  }
}

/** The seat map as an object URL (revoke it when done), or null when the event has none. */
export async function probeSeatMap(eventName: string, signal: AbortSignal): Promise<SeatMapImage | null> {
  for (const ext of SEATMAP_EXTENSIONS) {
    if (signal.aborted) return null;
    const file = `seatmap.${ext}`;
    const blob = await probeOne(`/${encodeURIComponent(eventName)}/assets/${file}`, signal);
    if (blob) return { url: URL.createObjectURL(blob), file };
  }
  return null;
}
