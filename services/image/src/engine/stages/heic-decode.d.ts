declare module 'heic-decode' {
  interface HeicImage {
    width: number;
    height: number;
    data: Uint8ClampedArray;
  }
  interface HeicFrame {
    width: number;
    height: number;
    decode(): Promise<HeicImage>;
  }
  function decode(o: { buffer: Uint8Array | ArrayBuffer }): Promise<HeicImage>;
  namespace decode {
    function all(o: { buffer: Uint8Array | ArrayBuffer }): Promise<HeicFrame[]>;
  }
  export default decode;
}
