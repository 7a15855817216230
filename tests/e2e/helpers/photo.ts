import sharp from 'sharp';

/**
 * A photo-like JPEG (sky gradient, building silhouettes, grain) of the given size: the grain keeps
 * it, and copies scaled down from it, about as heavy as a real photograph (about 400 KB at
 * 1920x1000), so it loads late as real ones do.
 */
export async function photoJpeg(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const clamp = (v: number) => Math.max(0, Math.min(255, v));
  // Grain at three scales (1, 6 and 24 pixels), so scaled-down copies keep detail as photos do.
  const cells = (size: number) => Array.from({ length: Math.ceil(width / size) * Math.ceil(height / size) }, () => random() - 0.5);
  const [mid, coarse] = [cells(6), cells(24)];
  const at = (grid: number[], size: number, x: number, y: number) =>
    grid[Math.floor(y / size) * Math.ceil(width / size) + Math.floor(x / size)]!;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const sky = y / height;
      const building = Math.sin(x / 37) > 0.2 && y > height * (0.3 + 0.2 * Math.sin(x / 211)) ? 1 : 0;
      const grain = (random() - 0.5) * 36 + at(mid, 6, x, y) * 40 + at(coarse, 24, x, y) * 50;
      raw[i] = clamp(40 + 120 * sky - 30 * building + grain + 30 * Math.sin(x / 90));
      raw[i + 1] = clamp(70 + 90 * sky - 20 * building + grain);
      raw[i + 2] = clamp(140 + 60 * (1 - sky) - 40 * building + grain + 20 * Math.cos(y / 60));
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .blur(0.6)
    .jpeg({ quality: 82 })
    .toBuffer();
}
