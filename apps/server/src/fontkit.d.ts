// fontkit (pdfkit's own font reader, issue 26) ships no types: the one call we make, to parse a font once per process.
declare module 'fontkit' {
  export function create(bytes: Uint8Array, postscriptName?: string): unknown;
}
