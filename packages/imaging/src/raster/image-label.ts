import type sharp from 'sharp';

/**
 * Results of the local engine say so inside the file ("its results are labelled as made by
 * the local engine"), so a downloaded picture can't pass for a provider's generative result.
 */
export const LOCAL_ENGINE_SOFTWARE = 'Mirra local engine';

export const LOCAL_ENGINE_DESCRIPTIONS = {
  simple: 'Made by Mirra local engine: procedural rendering from prompt keywords, offline',
  editing: 'Edited by Mirra local engine: classical image operations, offline',
  styling: 'Styled by Mirra local engine: classical image-processing filter, offline',
  face_swap: 'Face swapped by Mirra local engine: mesh warp and gradient-domain blend, offline',
  face_photo: 'Face photo by Mirra local engine: your photo cut out and set into a procedural scene, offline',
  background: 'Background by Mirra local engine: selfie segmentation refined on the photo colours, offline',
  inpaint: 'Inpainted by Mirra local engine: patch-based fill from the photo itself, offline',
  outpaint: 'Extended by Mirra local engine: the photo edges mirrored outwards and softened, offline',
  video:
    'Animated by Mirra local engine: a camera move over the photo, not a generative video model, offline',
  video_scene:
    'Made by Mirra local engine: a procedural scene from prompt keywords, animated, not a generative video model, offline',
  upscale: 'Upscaled by Mirra local engine: ESRGAN super-resolution network, offline',
  restore:
    'Restored by Mirra local engine: scratch and dust fill, denoise, levels and colour balance, face sharpening, offline',
} as const;

/**
 * Writes EXIF ImageDescription and Software (PNG eXIf chunk) and the same words as XMP (a PNG tEXt
 * chunk many viewers show). No date or host goes in, so the same input still gives identical bytes.
 * Note: libvips drops a trailing "(…)" from EXIF strings, so descriptions avoid parentheses.
 */
export function withLocalEngineLabel(image: sharp.Sharp, description: string): sharp.Sharp {
  return image
    .withExif({ IFD0: { ImageDescription: description, Software: LOCAL_ENGINE_SOFTWARE } })
    .withXmp(xmpPacket(description));
}

function xmpPacket(description: string): string {
  const text = description.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return [
    '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/">',
    `<xmp:CreatorTool>${LOCAL_ENGINE_SOFTWARE}</xmp:CreatorTool>`,
    `<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${text}</rdf:li></rdf:Alt></dc:description>`,
    '</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>',
  ].join('');
}

export interface ExifLabel {
  imageDescription: string | null;
  software: string | null;
}

/**
 * Reads ImageDescription and Software from a raw EXIF block (as sharp's `metadata().exif` returns it,
 * with or without the "Exif\0\0" header). Only IFD0 ASCII tags: all the label needs.
 */
export function readExifLabel(exif: Buffer | undefined): ExifLabel {
  const label: ExifLabel = { imageDescription: null, software: null };
  if (!exif || exif.length < 8) return label;
  const tiff = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;
  const order = tiff.subarray(0, 2).toString('latin1');
  if (order !== 'II' && order !== 'MM') return label;
  const little = order === 'II';
  const u16 = (offset: number) => (little ? tiff.readUInt16LE(offset) : tiff.readUInt16BE(offset));
  const u32 = (offset: number) => (little ? tiff.readUInt32LE(offset) : tiff.readUInt32BE(offset));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return label;
  const entries = u16(ifd);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) break;
    const tag = u16(entry);
    const type = u16(entry + 2);
    const count = u32(entry + 4);
    if (type !== 2 || (tag !== 0x010e && tag !== 0x0131)) continue;
    const at = count <= 4 ? entry + 8 : u32(entry + 8);
    if (at + count > tiff.length) continue;
    const text = tiff
      .subarray(at, at + count)
      .toString('utf8')
      .replace(/\0+$/, '');
    if (tag === 0x010e) label.imageDescription = text;
    else label.software = text;
  }
  return label;
}
