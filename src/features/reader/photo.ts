/** Photos are scaled on the device to at most this many pixels on the long side (issue 33). */
export const MAX_PHOTO_SIDE = 1600;
export const PHOTO_QUALITY = 0.82;

/** The size an image of w x h is drawn at: within max on both sides, aspect kept, never enlarged. */
export function fitWithin(w: number, h: number, max = MAX_PHOTO_SIDE): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(w, h));
  return { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
}

/** A camera picture as a JPEG of at most MAX_PHOTO_SIDE px, base64 (what the record call carries). */
export async function scalePhoto(file: Blob): Promise<{ contentType: 'image/jpeg'; data: string; width: number; height: number }> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  const { width, height } = fitWithin(bitmap.width, bitmap.height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const blob = await new Promise<Blob>((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('The photo could not be encoded.'))), 'image/jpeg', PHOTO_QUALITY));
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { contentType: 'image/jpeg', data: btoa(binary), width, height };
}
