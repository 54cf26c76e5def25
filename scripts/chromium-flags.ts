// The flags every headless Chromium of the tests and benchmarks needs on this kind of machine (closed network, no GPU,
// root).
/**
 * Chromium's command-line flags: no sandbox (root), no GPU, and none of the background calls a closed network refuses.
 */
export const CHROMIUM_FLAGS: string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
