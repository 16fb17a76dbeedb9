import { deflateSync } from 'node:zlib';

// A small PNG of a meter, drawn without an image library, for the simulated reader's and the seeded readings' photos.

const CRC = new Int32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
function crc32(buf: Uint8Array) {
  let c = -1;
  for (const b of buf) c = CRC[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}
function chunk(type: string, data: Buffer) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

const W = 96;
const H = 72;

/**
 * A small real PNG: a meter box seen from above, with the dial's needle at an angle set by the
 * value (a cover over the dial when the meter could not be read). Base64, as the record call takes it.
 */
export function photo(seed: number, value: number | null): { contentType: 'image/png'; data: string } {
  const angle = ((value ?? 0) % 1000) / 1000 * 2 * Math.PI;
  const grass = [70 + (seed & 31), 120 + ((seed >> 5) & 31), 60];
  const raw = Buffer.alloc((W * 3 + 1) * H);
  const cx = W / 2;
  const cy = H / 2;
  for (let y = 0; y < H; y++) {
    raw[y * (W * 3 + 1)] = 0;
    for (let x = 0; x < W; x++) {
      const dx = x - cx;
      const dy = y - cy;
      const d = Math.hypot(dx, dy);
      let px = grass;
      if (Math.abs(dx) < 38 && Math.abs(dy) < 28) px = [40, 44, 52]; // the box
      if (d < 20) px = value === null ? [90, 70, 50] : [236, 238, 240]; // dial, or mud over it
      if (value !== null && d < 17) {
        // needle: points along the angle from the centre
        const t = dx * Math.sin(angle) - dy * Math.cos(angle);
        const off = Math.abs(dx * Math.cos(angle) + dy * Math.sin(angle));
        if (t > 0 && off < 1.5) px = [200, 30, 30];
      }
      if (d < 2.5) px = [20, 20, 20];
      raw.set(px, y * (W * 3 + 1) + 1 + x * 3);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(W, 0);
  ihdr.writeUInt32BE(H, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const png = Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
  return { contentType: 'image/png', data: png.toString('base64') };
}
