// Reads QR codes from video frames (issue 11): the browser's own BarcodeDetector where it has one
// for QR codes (Android, macOS, ChromeOS), else the `barcode-detector` ponyfill on zxing-wasm whose
// .wasm file is served from our own build (never a CDN: the page must work offline and under our CSP).

export type QrDetector = { detect(source: HTMLVideoElement | HTMLCanvasElement | ImageBitmap): Promise<string[]> };

type NativeDetector = { detect(source: unknown): Promise<Array<{ rawValue: string }>> };
type NativeDetectorClass = { new (opts: { formats: string[] }): NativeDetector; getSupportedFormats(): Promise<string[]> };

async function nativeDetector(): Promise<QrDetector | null> {
  const Native = (globalThis as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
  if (!Native) return null;
  try {
    if (!(await Native.getSupportedFormats()).includes('qr_code')) return null;
    const d = new Native({ formats: ['qr_code'] });
    return { detect: async (s) => (await d.detect(s)).map((b) => b.rawValue) };
  } catch {
    return null;
  }
}

let loaded: Promise<QrDetector> | null = null;

export function loadQrDetector(): Promise<QrDetector> {
  loaded ??= (async () => {
    const native = await nativeDetector();
    if (native) return native;
    const [{ BarcodeDetector, prepareZXingModule }, { default: wasmUrl }] = await Promise.all([
      import('barcode-detector/ponyfill'),
      import('zxing-wasm/reader/zxing_reader.wasm?url'),
    ]);
    prepareZXingModule({ overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) } });
    const d = new BarcodeDetector({ formats: ['qr_code'] });
    return { detect: async (s) => (await d.detect(s)).map((b) => b.rawValue) };
  })();
  loaded.catch(() => (loaded = null));
  return loaded;
}
