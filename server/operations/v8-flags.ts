// V8 settings for the server process, applied on import (main.ts imports this first).
import v8 from 'node:v8';

// Allocation-site pretenuring sometimes decides, under load, that the HTTP layer's short-lived request objects live
// long and allocates them straight into the old generation: major collections then run every second or two, RSS doubles
// and the mod API's p99 goes from 4 ms to 40 ms. Whether it happens differs from run to run (2 of 4 runs in
// bench/README.md).
v8.setFlagsFromString('--no-allocation-site-pretenuring');
