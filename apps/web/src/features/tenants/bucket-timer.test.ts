import { BUCKET_TIMER } from '@marquee/core';
import { describe, expect, it } from 'vitest';
import {
  bucketTimerProgress,
  bucketTimerReducer,
  isCheckTick,
  restoreBucketTimer,
  serializeBucketTimer,
  type BucketTimer,
  type BucketTimerEvent,
  type BucketTimerState,
} from './bucket-timer';

const started = (): BucketTimer => bucketTimerReducer(null, { type: 'start', tenantId: 't1', tenantName: 'Acme' })!;
const run = (state: BucketTimerState, ...events: BucketTimerEvent[]) => events.reduce(bucketTimerReducer, state);
const ticks = (state: BucketTimerState, n: number) => run(state, ...Array.from({ length: n }, () => ({ type: 'tick' }) as const));
const at = (tick: number, status: BucketTimer['status'] = null): BucketTimer => ({ ...started(), tick, status });

describe('bucket set-up timer (spec: accounts §4, §9)', () => {
  it('starts at 0, running, with no status', () => {
    expect(started()).toEqual({ tenantId: 't1', tenantName: 'Acme', tick: 0, status: null, phase: 'running' });
  });

  it('rises one a tick and asks for a check every 5 ticks', () => {
    const checks: number[] = [];
    let s: BucketTimerState = started();
    for (let i = 0; i < 20; i++) {
      s = bucketTimerReducer(s, { type: 'tick' });
      if (isCheckTick(s)) checks.push(s!.tick);
    }
    expect(s!.tick).toBe(20);
    expect(checks).toEqual([5, 10, 15, 20]);
  });

  it('reports success when create_complete arrives before 59', () => {
    const s = run(ticks(started(), 5), { type: 'status', status: 'create_complete' });
    expect(s!.phase).toBe('success');
    // Nothing moves once finished.
    expect(ticks(s, 3)).toEqual(s);
  });

  it('goes back from 59 to 54 while the site is still being prepared', () => {
    expect(bucketTimerReducer(at(58), { type: 'tick' })!.tick).toBe(BUCKET_TIMER.resetTo);
    expect(bucketTimerReducer(at(58, 'CREATE_IN_PROGRESS'), { type: 'tick' })!.tick).toBe(54);
    // ...so a site still being prepared is re-checked at 55, again and again.
    const s = ticks(at(53, 'CREATE_IN_PROGRESS'), 12);
    expect(s!.phase).toBe('running');
    expect(s!.tick).toBeGreaterThanOrEqual(54);
    expect(s!.tick).toBeLessThan(59);
  });

  it('does not go back at 59 when the status is create_complete', () => {
    expect(bucketTimerReducer(at(58, 'create_complete'), { type: 'tick' })!.tick).toBe(59);
  });

  it('runs on from 59 to 60 and fails when the site is NOT_FOUND', () => {
    const s = ticks(at(57, 'NOT_FOUND'), 3);
    expect(s).toMatchObject({ tick: 60, phase: 'failed' });
  });

  it('reports failure at 60 with NOT_FOUND', () => {
    const s = run(at(59, 'create_complete'), { type: 'status', status: 'NOT_FOUND' }, { type: 'tick' });
    expect(s).toMatchObject({ tick: 60, phase: 'failed' });
    expect(bucketTimerReducer(at(60), { type: 'status', status: 'NOT_FOUND' })!.phase).toBe('failed');
  });

  it('never rises above 100', () => {
    expect(bucketTimerReducer(at(100, 'create_complete'), { type: 'tick' })!.tick).toBe(100);
  });

  it('retry starts the count again; dismiss removes it', () => {
    const failed: BucketTimer = { ...at(60, 'NOT_FOUND'), phase: 'failed' };
    expect(bucketTimerReducer(failed, { type: 'retry' })).toMatchObject({ tick: 0, status: null, phase: 'running' });
    expect(bucketTimerReducer(failed, { type: 'dismiss' })).toBeNull();
  });

  it("ends, in any phase, when its tenant is gone; another tenant's going changes nothing", () => {
    expect(bucketTimerReducer(at(23), { type: 'forget', tenantId: 't1' })).toBeNull();
    expect(bucketTimerReducer({ ...at(60, 'NOT_FOUND'), phase: 'failed' }, { type: 'forget', tenantId: 't1' })).toBeNull();
    expect(bucketTimerReducer({ ...at(10, 'create_complete'), phase: 'success' }, { type: 'forget', tenantId: 't1' })).toBeNull();
    expect(bucketTimerReducer(at(23), { type: 'forget', tenantId: 't2' })).toEqual(at(23));
    expect(bucketTimerReducer(null, { type: 'forget', tenantId: 't1' })).toBeNull();
  });

  it('resumes from what session storage kept', () => {
    const s = at(37, 'NOT_FOUND');
    expect(restoreBucketTimer(serializeBucketTimer(s))).toEqual(s);
    expect(restoreBucketTimer(null)).toBeNull();
    expect(restoreBucketTimer('not json')).toBeNull();
    expect(restoreBucketTimer('{"tenantId":"t1","tick":500}')).toMatchObject({ tick: 100, phase: 'running', status: null });
  });

  it('shows progress against the failure point', () => {
    expect(bucketTimerProgress(at(30))).toBe(50);
    expect(bucketTimerProgress({ ...at(5), phase: 'success' })).toBe(100);
  });
});
