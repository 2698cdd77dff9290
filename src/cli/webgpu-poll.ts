/**
 * Dawn for Node (`webgpu`) waits for the GPU by polling: while one of its promises is pending
 * (mapAsync, onSubmittedWorkDone, popErrorScope, requestDevice) it calls the instance's
 * ProcessEvents from a setImmediate callback that schedules the next one, taking setImmediate from
 * the global object each time (dawn.node's AsyncRunner::ScheduleProcessEvents). That is a busy
 * loop: a core at full load for as long as the GPU works. On a CPU adapter (SwiftShader, where
 * the CLI and the tests run without a GPU) that core is one the device's own threads need: the
 * loop took 0.2–0.8 s of CPU of a SwiftShader frame that took 0.2–0.4 s of its threads.
 * `pollOnTimer` has this thread's Dawn poll on a 1 ms timer instead (BENCHMARKS.md, "The WebGPU
 * tests on SwiftShader: Dawn's poll on a timer, the kernels compiled once a device").
 */

/** Whether this thread's setImmediate already passes Dawn's polls to a timer. */
let installed = false;

/** Dawn's poll callback: a native function without a name (Napi::Function::New). */
function isDawnPoll(fn: unknown): fn is () => void {
  return typeof fn === 'function' && fn.name === '' && Function.prototype.toString.call(fn).includes('[native code]');
}

/**
 * From now on, in this thread, Dawn's poll runs every `ms` milliseconds (Node's timers: 1 at the
 * least) while it waits, not at every turn of the event loop; every other setImmediate is as it was.
 */
export function pollOnTimer(ms = 1): void {
  if (installed) return;
  installed = true;
  const immediate = globalThis.setImmediate, timeout = globalThis.setTimeout;
  const poll = function setImmediate(fn: (...args: unknown[]) => void, ...args: unknown[]) {
    if (isDawnPoll(fn)) return timeout(fn, ms) as unknown as NodeJS.Immediate;
    return immediate(fn, ...args);
  };
  // util.promisify's custom form and the rest of setImmediate's own properties stay.
  for (const key of Reflect.ownKeys(immediate)) {
    if (key === 'name' || key === 'length' || key === 'prototype') continue;
    Object.defineProperty(poll, key, Object.getOwnPropertyDescriptor(immediate, key)!);
  }
  globalThis.setImmediate = poll as typeof globalThis.setImmediate;
}
