/** The espeak-ng package (Emscripten build of the CLI) ships no types; this is the part the offline engine uses. */
declare module 'espeak-ng' {
  interface EspeakModule {
    FS: { readFile(path: string): Uint8Array; writeFile(path: string, data: string | Uint8Array): void };
  }
  interface EspeakOptions {
    arguments: string[];
    preRun?: ((module: EspeakModule) => void)[];
    print?: (line: string) => void;
    printErr?: (line: string) => void;
    instantiateWasm?: (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void) => object;
  }
  export default function ESpeakNg(options: EspeakOptions): Promise<EspeakModule>;
}
