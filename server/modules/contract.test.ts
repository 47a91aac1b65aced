import { expect, it } from 'vitest';
import { api, type CallName } from '../../common/api/index.ts';
import { describeEachDatabase } from '../test/harness.ts';
import { allHandlers, callsAwaitingHandlers } from './index.ts';

const callNames = Object.keys(api) as CallName[];
const handled = new Set(Object.keys(allHandlers));

it('has a server handler for every call of the contract, but for the listed exceptions', () => {
  const missing = callNames.filter((name) => !handled.has(name) && !callsAwaitingHandlers.includes(name));
  expect(missing).toEqual([]);
});

it('lists as awaiting a handler only calls of the contract that still have none', () => {
  const stale = callsAwaitingHandlers.filter((name) => !(name in api) || handled.has(name));
  expect(stale).toEqual([]);
});

describeEachDatabase('the contract as the server answers it', (env) => {
  it('registers a route at the path and method of every handled call', () => {
    const unrouted = callNames
      .filter((name) => handled.has(name))
      .filter((name) => !env.app.hasRoute({ method: api[name].method, url: api[name].path }));
    expect(unrouted).toEqual([]);
  });
});
