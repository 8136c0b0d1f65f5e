import argon2 from "argon2";
import { HttpError } from "../http/errors.ts";

/**
 * Password hashing is bounded (issue 14 finding 6): argon2 takes about half a
 * second of a core and a slice of memory per call, so unbounded concurrent
 * logins starve the courier API. At most `concurrency` hashes run at once;
 * up to `queue` more wait, each at most `maxWaitMs`; beyond that the login is
 * refused at once with 503 and Retry-After, which the app answers by trying
 * again.
 */

export interface HashingBounds {
  concurrency: number;
  queue: number;
  maxWaitMs: number;
}

export const DEFAULT_HASHING_BOUNDS: HashingBounds = { concurrency: 2, queue: 16, maxWaitMs: 3_000 };

const busy = () => new HttpError(503, "busy", "Too many logins at once. Please try again in a moment.", undefined, { "retry-after": "2" });

export class PasswordHasher {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly bounds: HashingBounds = DEFAULT_HASHING_BOUNDS) {}

  verify(hash: string, password: string): Promise<boolean> {
    return this.bounded(() => argon2.verify(hash, password));
  }

  hash(password: string): Promise<string> {
    return this.bounded(() => argon2.hash(password));
  }

  private async bounded<T>(work: () => Promise<T>): Promise<T> {
    // A finished hash hands its slot straight to the next in line, so `running` never exceeds the bound.
    if (this.running < this.bounds.concurrency) this.running++;
    else await this.wait();
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  private wait(): Promise<void> {
    if (this.waiting.length >= this.bounds.queue) return Promise.reject(busy());
    return new Promise((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const index = this.waiting.indexOf(turn);
        if (index !== -1) this.waiting.splice(index, 1);
        reject(busy());
      }, this.bounds.maxWaitMs);
      this.waiting.push(turn);
    });
  }
}
