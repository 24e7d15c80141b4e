import { PHOTO_JPEG_QUALITY, PHOTO_SIZE_PX } from './profileRules';

export interface CropArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('The image could not be read.'));
    image.src = src;
  });
}

/**
 * Draws the cropped area of the image into a square canvas and encodes it as a JPEG data URL.
 * Re-encoding on the device also strips the original file's metadata (EXIF location etc.).
 */
export async function cropToJpegDataUrl(imageSrc: string, area: CropArea, size: number = PHOTO_SIZE_PX): Promise<string> {
  const image = await loadImage(imageSrc);
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('The image could not be processed.');
  // JPEG has no transparency: paint white under transparent PNG areas instead of black.
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, size, size);
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, size, size);
  return canvas.toDataURL('image/jpeg', PHOTO_JPEG_QUALITY);
}
