// Polling a batch: soon at first, then at the interval asked for, never past it.
import { describe, expect, it } from 'vitest';
import { pollPace } from '../../../../electron/core/client/poll-pace.ts';

describe('the pace of polling a batch', () => {
  it('asks again soon at first, then at the interval', () => {
    const next = pollPace(500);
    expect(Array.from({ length: 7 }, next)).toEqual([50, 100, 200, 400, 500, 500, 500]);
  });

  it('never waits longer than a short interval asked for', () => {
    const next = pollPace(20);
    expect(Array.from({ length: 3 }, next)).toEqual([20, 20, 20]);
  });
});
