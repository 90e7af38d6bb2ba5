import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { TLanguage } from '@mirra/contracts';

/**
 * Speech synthesis with eSpeak NG compiled to WebAssembly (the `espeak-ng` npm package: the
 * program and every voice's data are inside its .wasm, so nothing is fetched when installing or
 * speaking). Each call runs the espeak-ng command line once in a fresh instance of the module
 * (its state is a C program's: one run per instance); the compiled module is kept per thread.
 */

/** eSpeak's sample rate: 16-bit mono. */
export const SPEECH_SAMPLE_RATE = 22050;
/** eSpeak's normal speed, in words per minute. */
export const SPEECH_RATE_NORMAL = 175;
/** The fastest it is asked to speak to fit a length: faster is no longer understood. */
export const SPEECH_RATE_MAX = 320;

/** The eSpeak voice of each of the app's languages (all six ship with eSpeak NG). */
export const SPEECH_VOICES: Record<TLanguage, string> = {
  en: 'en',
  ru: 'ru',
  de: 'de',
  uk: 'uk',
  kk: 'kk',
  az: 'az',
};

export interface SynthesisedSpeech {
  /** Mono samples, -1–1, at SPEECH_SAMPLE_RATE. */
  samples: Float32Array;
  /**
   * eSpeak's phonemes of the text (its ASCII phoneme names, `-x`), one clause per line: the mouth
   * shapes are read from them.
   */
  phonemes: string;
}

interface ESpeakModule {
  FS: { readFile(path: string): Uint8Array; writeFile(path: string, data: string | Uint8Array): void };
}
type ESpeakFactory = (options: Record<string, unknown>) => Promise<ESpeakModule>;

/** The part of the WebAssembly API used here (the project's type libraries leave it out). */
interface WasmApi {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  instantiate(module: WasmModule, imports: unknown): Promise<unknown>;
}
type WasmModule = { readonly wasmModule: unique symbol };
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
/** Named through a variable: the package ships no types, its factory is typed here. */
const ESPEAK_PACKAGE = 'espeak-ng';

let compiled: Promise<{ factory: ESpeakFactory; module: WasmModule }> | null = null;

function loadEspeak(): Promise<{ factory: ESpeakFactory; module: WasmModule }> {
  compiled ??= (async () => {
    const require = createRequire(import.meta.url);
    const entry = require.resolve(ESPEAK_PACKAGE);
    const wasmPath = entry.replace(/espeak-ng\.js$/, 'espeak-ng.wasm');
    const [imported, bytes] = await Promise.all([
      import(ESPEAK_PACKAGE) as Promise<{ default: ESpeakFactory }>,
      readFile(wasmPath),
    ]);
    return { factory: imported.default, module: await wasm.compile(bytes) };
  })();
  compiled.catch(() => {
    compiled = null;
  });
  return compiled;
}

/**
 * Says `text` in `language` at `rate` words per minute: the samples and eSpeak's phonemes. The
 * text goes in as a file, never as an argument, so nothing in it can read as an option.
 */
export async function synthesiseSpeech(
  text: string,
  language: TLanguage,
  rate = SPEECH_RATE_NORMAL,
): Promise<SynthesisedSpeech> {
  const { factory, module } = await loadEspeak();
  let phonemes = '';
  const instance = await factory({
    arguments: [
      '-v',
      SPEECH_VOICES[language],
      '-s',
      String(Math.round(Math.min(SPEECH_RATE_MAX, Math.max(80, rate)))),
      '-x',
      '-w',
      '/speech.wav',
      '-f',
      '/text.txt',
    ],
    preRun: [
      (self: ESpeakModule) => {
        self.FS.writeFile('/text.txt', text);
      },
    ],
    print: (line: string) => {
      phonemes += `${line}\n`;
    },
    printErr: () => {},
    instantiateWasm(imports: unknown, done: (instance: unknown, module: WasmModule) => void) {
      void wasm.instantiate(module, imports).then((instance) => done(instance, module));
      return {};
    },
  });
  return { samples: wavSamples(instance.FS.readFile('/speech.wav')), phonemes: phonemes.trim() };
}

/** The samples of a 16-bit PCM mono WAV as -1–1 (the data chunk found by walking the chunks). */
export function wavSamples(wav: Uint8Array): Float32Array {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  let offset = 12;
  while (offset + 8 <= wav.byteLength) {
    const id = String.fromCharCode(...wav.subarray(offset, offset + 4));
    let size = view.getUint32(offset + 4, true);
    // eSpeak writing to a file it cannot seek leaves the size as 0x7fffffff: the rest is data.
    if (offset + 8 + size > wav.byteLength) size = wav.byteLength - offset - 8;
    if (id === 'data') {
      const count = Math.floor(size / 2);
      const samples = new Float32Array(count);
      for (let index = 0; index < count; index++) {
        samples[index] = view.getInt16(offset + 8 + index * 2, true) / 32768;
      }
      return samples;
    }
    offset += 8 + size + (size % 2);
  }
  return new Float32Array(0);
}

/** Mono samples (-1–1) as a 16-bit PCM WAV. */
export function encodeWav(samples: Float32Array, sampleRate = SPEECH_SAMPLE_RATE): Buffer {
  const data = Buffer.alloc(44 + samples.length * 2);
  data.write('RIFF', 0, 'ascii');
  data.writeUInt32LE(36 + samples.length * 2, 4);
  data.write('WAVE', 8, 'ascii');
  data.write('fmt ', 12, 'ascii');
  data.writeUInt32LE(16, 16);
  data.writeUInt16LE(1, 20);
  data.writeUInt16LE(1, 22);
  data.writeUInt32LE(sampleRate, 24);
  data.writeUInt32LE(sampleRate * 2, 28);
  data.writeUInt16LE(2, 32);
  data.writeUInt16LE(16, 34);
  data.write('data', 36, 'ascii');
  data.writeUInt32LE(samples.length * 2, 40);
  for (let index = 0; index < samples.length; index++) {
    data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, samples[index]!)) * 32767), 44 + index * 2);
  }
  return data;
}
