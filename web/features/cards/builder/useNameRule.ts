/** The card name rule as the builder checks it before a call: SPEC §5, and unique among live cards. */
import { checkItemName, messages, nameKey } from '../../../../common/fieldRules.ts';
import { useCards } from '../../../shared/api/cards.ts';

export function useNameRule(ownId: number | null) {
  const cards = useCards();
  return (value: string) => {
    const problem = checkItemName(value.trim());
    if (problem) return problem;
    const taken = (cards.data?.cards ?? []).some(
      (c) => c.id !== ownId && nameKey(c.name) === nameKey(value.trim()),
    );
    return taken ? messages.nameExists : null;
  };
}
