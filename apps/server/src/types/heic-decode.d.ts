/** heic-decode 2 (libheif-js compiled to WebAssembly) ships no types; this is the part we use. */
declare module 'heic-decode' {
  interface DecodedHeicImage {
    width: number;
    height: number;
    /** RGBA, 4 bytes a pixel. */
    data: Uint8ClampedArray;
  }
  interface HeicImageHandle {
    width: number;
    height: number;
    decode(): Promise<DecodedHeicImage>;
  }
  interface HeicDecode {
    (options: { buffer: Uint8Array }): Promise<DecodedHeicImage>;
    /** Every top-level image, sizes known before any pixel is decoded; call `dispose()` after. */
    all(options: { buffer: Uint8Array }): Promise<HeicImageHandle[] & { dispose(): void }>;
  }
  const decode: HeicDecode;
  export default decode;
}
