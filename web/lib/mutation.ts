/**
 * A state-changing call as a TanStack mutation. One Idempotency-Key per user action: a retry of the same
 * request (the layer's own retries, or the user pressing Submit again after a failure) reuses it, so a call
 * whose answer was lost never applies twice.
 */
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useRef } from 'react';
import type { z } from 'zod';
import type { CallDef } from '../../common/api/define.ts';
import { callApi, newIdempotencyKey, type Answer } from './api.ts';

export function useCallMutation<C extends CallDef>(
  call: C,
  options: { invalidates?: QueryKey[]; onSuccess?: (answer: Answer<C>) => void } = {},
) {
  const queryClient = useQueryClient();
  const pending = useRef<{ key: string; body: string } | null>(null);
  return useMutation({
    mutationFn: (body: z.input<C['request']>) => {
      const serialised = JSON.stringify(body);
      if (pending.current?.body !== serialised)
        pending.current = { key: newIdempotencyKey(), body: serialised };
      return callApi(call, body, { idempotencyKey: pending.current.key });
    },
    onSuccess: async (answer) => {
      pending.current = null;
      await Promise.all(
        (options.invalidates ?? []).map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      );
      options.onSuccess?.(answer);
    },
  });
}
