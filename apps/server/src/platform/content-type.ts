// Uploads are judged by their bytes, never by the name or the declared type.
export type SniffedType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp' | 'application/zip' | 'application/pdf';

export function sniffContentType(bytes: Uint8Array): SniffedType | null {
  const b = bytes;
  const starts = (...sig: number[]) => sig.every((v, i) => b[i] === v);
  if (b.length >= 3 && starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (b.length >= 8 && starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (b.length >= 6 && (starts(0x47, 0x49, 0x46, 0x38, 0x37, 0x61) || starts(0x47, 0x49, 0x46, 0x38, 0x39, 0x61))) return 'image/gif';
  if (b.length >= 12 && starts(0x52, 0x49, 0x46, 0x46) && b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50)
    return 'image/webp';
  if (b.length >= 4 && starts(0x50, 0x4b, 0x03, 0x04)) return 'application/zip';
  if (b.length >= 5 && starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf';
  return null;
}

export const IMAGE_TYPES: SniffedType[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
export const PICTURE_TYPES: SniffedType[] = ['image/jpeg', 'image/png'];
