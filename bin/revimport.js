#!/usr/bin/env node
// V8 decides early in a run to allocate an object literal's later copies in the old generation when nearly
// all of the first ones survive a young-generation collection ("allocation-site pretenuring"). revimport holds
// each valid row's objects until its look-up chunk of 512 is full, so in the first collections, while the young
// generation is still small, they all survive; the site is then tenured for the rest of the run and every row's
// objects die in the old generation: a re-push of 1M rows promoted 510 MiB instead of 28 and spent ~20% more
// CPU on marking threads (bench/README.md, "push again"). Turned off before anything else is loaded.
// WebAssembly stays on V8's baseline compiler (Liftoff): undici parses HTTP with llhttp compiled to wasm, and
// its optimizing compile at the first request took ~30 MiB for a moment, in every push (a 5,000-row push
// peaked at 152-159 MiB, 122 with this; issue 23). It parses one small response per batch, so speed is moot.
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-allocation-site-pretenuring');
setFlagsFromString('--liftoff-only');
import('../dist/cli/main.js').then((cli) => cli.run());
