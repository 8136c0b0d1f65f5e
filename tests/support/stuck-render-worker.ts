/** A render worker that never gets ready (it blocks its thread as it loads): the pool must still answer. */
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
