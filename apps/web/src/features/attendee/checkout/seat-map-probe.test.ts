import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { probeSeatMap, SEATMAP_PROBE_TIMEOUT_MS } from './seat-map-probe';

// spec: reports-payouts-checkout §7 (seatmap.{png|jpg|jpeg|gif} probed in that order; the first
// valid image wins: image content type, nonzero size, within 5 s) and §9 (image probe timeout 5 s).
// fetch is the browser's, stubbed here: each URL answers what the test says it answers.

type Answer = { status?: number; type?: string; body?: Uint8Array<ArrayBuffer> } | 'hang' | 'network-error';

const IMAGE = new Uint8Array([0xff, 0xd8, 0xff, 0xd9]);
const asked: string[] = [];

function stubFetch(answers: Record<string, Answer>) {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      asked.push(url);
      const answer = answers[url.slice(url.lastIndexOf('/') + 1)] ?? { status: 404, type: 'application/json', body: new TextEncoder().encode('{}') };
      if (answer === 'network-error') return Promise.reject(new TypeError('Failed to fetch'));
      if (answer === 'hang') {
        // Never answers; only the abort signal ends it, as a browser's fetch does.
        return new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))));
      }
      const headers = answer.type ? { 'content-type': answer.type } : undefined;
      return Promise.resolve(new Response(answer.body ?? null, { status: answer.status ?? 200, headers }));
    }),
  );
}

const files = () => asked.map((url) => url.slice(url.lastIndexOf('/') + 1));
const probe = (signal = new AbortController().signal) => probeSeatMap('summer-jam', signal);

beforeEach(() => {
  asked.length = 0;
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('probeSeatMap', () => {
  it('asks for png, jpg, jpeg, gif in that order on the event site, and answers null when none is there', async () => {
    stubFetch({});
    expect(await probe()).toBeNull();
    expect(asked).toEqual([
      '/summer-jam/assets/seatmap.png',
      '/summer-jam/assets/seatmap.jpg',
      '/summer-jam/assets/seatmap.jpeg',
      '/summer-jam/assets/seatmap.gif',
    ]);
  });

  it('takes the first valid image and asks no further', async () => {
    stubFetch({ 'seatmap.jpg': { type: 'image/jpeg', body: IMAGE }, 'seatmap.gif': { type: 'image/gif', body: IMAGE } });
    const found = await probe();
    expect(found?.file).toBe('seatmap.jpg');
    expect(found?.url).toMatch(/^blob:/);
    expect(files()).toEqual(['seatmap.png', 'seatmap.jpg']);
    URL.revokeObjectURL(found!.url);
  });

  it('prefers png when several are there', async () => {
    stubFetch({ 'seatmap.png': { type: 'image/png', body: IMAGE }, 'seatmap.jpg': { type: 'image/jpeg', body: IMAGE } });
    expect((await probe())?.file).toBe('seatmap.png');
    expect(files()).toEqual(['seatmap.png']);
  });

  it('skips an answer that is not an image (an HTML fallback page with 200), or has no content type', async () => {
    stubFetch({
      'seatmap.png': { type: 'text/html; charset=utf-8', body: new TextEncoder().encode('<!doctype html><title>Marquee</title>') },
      'seatmap.jpg': { body: IMAGE },
      'seatmap.jpeg': { type: 'Image/JPEG', body: IMAGE },
    });
    expect((await probe())?.file).toBe('seatmap.jpeg');
    expect(files()).toEqual(['seatmap.png', 'seatmap.jpg', 'seatmap.jpeg']);
  });

  it('skips an empty image, an error status and a network error', async () => {
    stubFetch({
      'seatmap.png': { type: 'image/png', body: new Uint8Array() },
      'seatmap.jpg': { status: 500, type: 'image/jpeg', body: IMAGE },
      'seatmap.jpeg': 'network-error',
      'seatmap.gif': { type: 'image/gif', body: IMAGE },
    });
    expect((await probe())?.file).toBe('seatmap.gif');
    expect(files()).toEqual(['seatmap.png', 'seatmap.jpg', 'seatmap.jpeg', 'seatmap.gif']);
  });

  it('gives up on a file that does not answer within 5 s and goes on to the next', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    stubFetch({ 'seatmap.png': 'hang', 'seatmap.jpg': { type: 'image/jpeg', body: IMAGE } });
    let settled = false;
    const pending = probe().then((found) => {
      settled = true;
      return found;
    });
    await vi.advanceTimersByTimeAsync(SEATMAP_PROBE_TIMEOUT_MS - 1);
    expect(settled).toBe(false);
    expect(files()).toEqual(['seatmap.png']);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending)?.file).toBe('seatmap.jpg');
    expect(SEATMAP_PROBE_TIMEOUT_MS).toBe(5000);
  });

  it('stops when the page goes away (the caller aborts)', async () => {
    stubFetch({ 'seatmap.png': 'hang', 'seatmap.jpg': { type: 'image/jpeg', body: IMAGE } });
    const controller = new AbortController();
    const pending = probe(controller.signal);
    controller.abort();
    expect(await pending).toBeNull();
    expect(files()).toEqual(['seatmap.png']);
  });
});
