// Regenerates the demo world's three fuel installation photos as small real PNG files (no image
// library needed): run `node server/seed/files/make-demo-photos.mjs`. They are simple drawings
// of a certification plate, the monitor close up and the tank from afar.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { join } from 'node:path';

const W = 320;
const H = 220;

const CRC = new Int32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
const crc32 = (buf) => {
  let c = -1;
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
};
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function png(pixel) {
  const raw = Buffer.alloc((W * 3 + 1) * H);
  for (let y = 0; y < H; y++) {
    raw[y * (W * 3 + 1)] = 0;
    for (let x = 0; x < W; x++) raw.set(pixel(x, y), y * (W * 3 + 1) + 1 + x * 3);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(W, 0);
  ihdr.writeUInt32BE(H, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}
const mix = (a, b, t) => a.map((v, i) => Math.round(v + (b[i] - v) * t));
const inRect = (x, y, [x0, y0, x1, y1]) => x >= x0 && x < x1 && y >= y0 && y < y1;
const inEllipse = (x, y, cx, cy, rx, ry) => ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1;
// stripes of "text" on the plate: short dark bars standing in for engraved lines
const textBar = (x, y, rows) => rows.some(([y0, x0, x1]) => y >= y0 && y < y0 + 6 && x >= x0 && x < x1 && (x - x0) % 9 < 7);

const photos = {
  'diesel-depot-1-cert-plate.png': (x, y) => {
    if (!inRect(x, y, [40, 30, 280, 190])) return mix([120, 128, 136], [200, 205, 210], y / H);
    if (!inRect(x, y, [44, 34, 276, 186])) return [70, 70, 70];
    if (textBar(x, y, [[50, 60, 250], [75, 60, 200], [95, 60, 230], [115, 60, 180], [135, 60, 215], [155, 60, 160]])) return [40, 40, 40];
    return mix([222, 226, 229], [200, 204, 208], x / W);
  },
  'diesel-depot-1-close.png': (x, y) => {
    if (inEllipse(x, y, 160, 70, 22, 22)) return [232, 163, 23];
    if (inRect(x, y, [120, 40, 200, 105])) return [60, 60, 64];
    if (y > 100) return mix([216, 210, 196], [170, 164, 150], (y - 100) / 120);
    return mix([47, 107, 58], [92, 158, 95], y / 100);
  },
  'diesel-depot-1-far.png': (x, y) => {
    if (inRect(x, y, [150, 70, 166, 92])) return [60, 60, 64];
    if (inEllipse(x, y, 160, 130, 110, 40)) return mix([226, 220, 206], [176, 170, 156], (y - 90) / 80);
    if (y > 165) return mix([111, 143, 78], [80, 110, 55], (y - 165) / 55);
    return mix([142, 197, 232], [223, 239, 248], y / 165);
  },
};
for (const [name, pixel] of Object.entries(photos)) writeFileSync(join(import.meta.dirname, name), png(pixel));
