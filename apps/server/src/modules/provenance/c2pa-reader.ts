import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { initSync, WasmReader } from '@contentauth/c2pa-wasm';

/*
 * Reading and validating manifests is the Content Authenticity Initiative's own c2pa-rs (compiled to
 * WebAssembly): an implementation independent of the one that writes them, as any viewer reading
 * Mirra's files would be.
 */

let ready = false;
function init() {
  if (ready) return;
  const wasm = createRequire(import.meta.url).resolve('@contentauth/c2pa-wasm/c2pa.wasm');
  initSync({ module: readFileSync(wasm) });
  ready = true;
}

export interface ReadManifest {
  /** `Valid` or `Trusted` (the signer chains to a root in `trustAnchorsPem`), or `Invalid`. */
  validationState: string;
  /** Validation failures (codes such as `assertion.dataHash.mismatch`). */
  failures: string[];
  generator: string | null;
  actions: {
    action: string;
    digitalSourceType?: string;
    softwareAgent?: { name?: string };
    parameters?: Record<string, unknown>;
  }[];
  /** Ingredients of the active manifest (a provider's own manifest kept as the parent). */
  ingredients: { relationship?: string; active_manifest?: string; title?: string }[];
  /** The signing certificate's issuer and the signature's time, as the reader reports them. */
  signature: { issuer?: string; common_name?: string; time?: string } | null;
}

/** The active manifest of a file, or null when it carries none (or is not a format C2PA covers). */
export async function readC2paManifest(
  data: Buffer,
  contentType: string,
  trustAnchorsPem: string | null,
): Promise<ReadManifest | null> {
  init();
  const context = JSON.stringify(
    trustAnchorsPem
      ? { trust: { user_anchors: trustAnchorsPem }, verify: { verify_trust: true } }
      : { verify: { verify_trust: false } },
  );
  let reader: WasmReader;
  try {
    reader = await WasmReader.fromBytes(contentType, new Uint8Array(data), context);
  } catch {
    return null;
  }
  try {
    const store = JSON.parse(reader.json()) as {
      validation_state?: string;
      validation_results?: { activeManifest?: { failure?: { code: string }[] } };
      validation_status?: { code: string }[];
    };
    const manifest = reader.activeManifest() as
      | {
          claim_generator?: string;
          claim_generator_info?: { name?: string }[];
          assertions?: { label: string; data: { actions?: ReadManifest['actions'] } }[];
          signature_info?: ReadManifest['signature'];
          ingredients?: ReadManifest['ingredients'];
        }
      | undefined;
    if (!manifest) return null;
    const actions = (manifest.assertions ?? [])
      .filter((assertion) => assertion.label.startsWith('c2pa.actions'))
      .flatMap((assertion) => assertion.data.actions ?? []);
    const failures = [
      ...(store.validation_results?.activeManifest?.failure ?? []),
      ...(store.validation_status ?? []),
    ].map((entry) => entry.code);
    return {
      validationState: store.validation_state ?? 'Invalid',
      failures: [...new Set(failures)],
      generator: manifest.claim_generator_info?.[0]?.name ?? manifest.claim_generator ?? null,
      actions,
      ingredients: manifest.ingredients ?? [],
      signature: manifest.signature_info ?? null,
    };
  } finally {
    reader.free();
  }
}
