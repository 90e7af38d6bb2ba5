/*
 * IPTC's DigitalSourceType in XMP, the mark many tools (and the EU's code of practice) read besides
 * C2PA. Written as a packet of its own, without re-encoding: a JPEG APP1 segment after the header,
 * a PNG iTXt chunk after IHDR.
 */

export const TRAINED_ALGORITHMIC_MEDIA =
  'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia';

/** The XMP packet: the digital source type, and the tool named as the creator tool (no personal data). */
export function xmpPacket(creatorTool: string): string {
  const tool = creatorTool.replace(/[<>&"]/g, '');
  return (
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>' +
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    '<rdf:Description rdf:about="" xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"' +
    ' xmlns:xmp="http://ns.adobe.com/xap/1.0/"' +
    ` Iptc4xmpExt:DigitalSourceType="${TRAINED_ALGORITHMIC_MEDIA}" xmp:CreatorTool="${tool}"/>` +
    '</rdf:RDF></x:xmpmeta><?xpacket end="w"?>'
  );
}

/** The file with the XMP packet added (JPEG and PNG; other formats come back as they are). */
export function withXmp(data: Buffer, contentType: string, xmp: string): Buffer {
  if (contentType === 'image/jpeg') return jpegWithXmp(data, xmp);
  if (contentType === 'image/png') return pngWithXmp(data, xmp);
  return data;
}

function jpegWithXmp(data: Buffer, xmp: string): Buffer {
  const payload = Buffer.concat([
    Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'),
    Buffer.from(xmp, 'utf8'),
  ]);
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(payload.length + 2, 2);
  // After SOI and a JFIF APP0 if there is one (APP0 must come first when present).
  let at = 2;
  if (data.readUInt16BE(2) === 0xffe0) at = 4 + data.readUInt16BE(4);
  return Buffer.concat([data.subarray(0, at), segment, payload, data.subarray(at)]);
}

function pngWithXmp(data: Buffer, xmp: string): Buffer {
  const body = Buffer.concat([
    Buffer.from('iTXt', 'latin1'),
    Buffer.from('XML:com.adobe.xmp\0\0\0\0\0', 'latin1'),
    Buffer.from(xmp, 'utf8'),
  ]);
  const chunk = Buffer.alloc(body.length + 8);
  chunk.writeUInt32BE(body.length - 4, 0);
  body.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(body), body.length + 4);
  // The signature (8) and IHDR (4 length + 4 type + 13 data + 4 CRC).
  const at = 8 + 25;
  return Buffer.concat([data.subarray(0, at), chunk, data.subarray(at)]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
