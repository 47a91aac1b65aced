import { Switch } from '@mantine/core';
import { useState } from 'react';
import { api, type Card } from '../../../../common/api/index.ts';
import { ErrorText } from '../../../components/ErrorText.tsx';
import { messageOf } from '../../../lib/api.ts';
import { useReplaceCard } from '../../../shared/api/cards.ts';

/**
 * Issue 13: whether completing an evaluation of this card needs the evaluator's drawn signature and typed
 * name (docs/decisions/0710). Saved at once, like the items' "required on Fail" switches.
 */
export function SignOffSwitch({ card }: { card: Card }) {
  const replace = useReplaceCard(card.id);
  const [failure, setFailure] = useState<string | null>(null);
  const change = async (signOffRequired: boolean) => {
    setFailure(null);
    try {
      await replace.mutateAsync({ card: { id: card.id, name: card.name, signOffRequired, cardItems: [] } });
    } catch (error) {
      setFailure(messageOf(error, api.replaceCard));
    }
  };
  return (
    <>
      <Switch
        label="Sign-off required"
        description="The evaluator signs on the screen and types their name before submitting."
        checked={card.signOffRequired}
        disabled={replace.isPending}
        onChange={(event) => void change(event.currentTarget.checked)}
      />
      <ErrorText message={failure} />
    </>
  );
}
