/**
 * The smallest files `file-type` recognises, one per accepted type, made here so tests need
 * no binary fixtures: the magic numbers and headers each format starts with.
 */
const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0))
const u32 = (n: number): number[] => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]

export const SAMPLES = {
  png: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...u32(13), ...ascii('IHDR'), ...u32(1), ...u32(1), 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89]),
  jpeg: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, ...ascii('JFIF'), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9]),
  webp: new Uint8Array([...ascii('RIFF'), 26, 0, 0, 0, ...ascii('WEBPVP8 '), 14, 0, 0, 0, 0x30, 1, 0, 0x9d, 0x01, 0x2a, 1, 0, 1, 0, 0, 0, 0, 0]),
  pdf: new Uint8Array(ascii('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')),
  mp4: new Uint8Array([...u32(24), ...ascii('ftypisom'), 0, 0, 2, 0, ...ascii('isomiso2'), ...u32(8), ...ascii('free')]),
  webm: new Uint8Array([
    0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01, 0x42, 0xf2, 0x81, 0x04, 0x42, 0xf3, 0x81, 0x08,
    0x42, 0x82, 0x84, ...ascii('webm'), 0x42, 0x87, 0x81, 0x04, 0x42, 0x85, 0x81, 0x02,
  ]),
  quicktime: new Uint8Array([...u32(20), ...ascii('ftypqt  '), 0, 0, 2, 0, ...ascii('qt  '), ...u32(8), ...ascii('wide')]),
  gif: new Uint8Array(ascii('GIF89a\x01\x00\x01\x00\x00\x00\x00;')),
  text: new Uint8Array(ascii('Just some words, whatever the file name says.\n')),
} as const

export const SAMPLE_TYPES = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  pdf: 'application/pdf',
  mp4: 'video/mp4',
  webm: 'video/webm',
  quicktime: 'video/quicktime',
} as const

/** A valid-looking file of `kind` padded with zeros to exactly `size` bytes. */
export function padded(kind: keyof typeof SAMPLES, size: number): Uint8Array {
  const out = new Uint8Array(size)
  out.set(SAMPLES[kind].subarray(0, size))
  return out
}
