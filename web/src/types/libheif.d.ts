// libheif-js ships its browser bundle (the WebAssembly inlined) as an ES module without types.
declare module 'libheif-js/libheif-wasm/libheif-bundle.mjs' {
  interface HeifImage {
    get_width(): number;
    get_height(): number;
    display(
      target: { data: Uint8ClampedArray; width: number; height: number },
      done: (result: { data: Uint8ClampedArray } | null) => void,
    ): void;
    free(): void;
  }
  interface LibHeif {
    ready?: Promise<unknown>;
    HeifDecoder: new () => { decoder: { delete(): void }; decode(buffer: Uint8Array): HeifImage[] };
  }
  const factory: () => LibHeif;
  export default factory;
}
