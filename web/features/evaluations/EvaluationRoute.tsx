import { useParams } from 'react-router';
import { AnonymousEvaluationPage } from '../anonymous/AnonymousEvaluationPage.tsx';
import { NotFoundPage } from '../misc/NotFoundPage.tsx';
import { MemberLayoutGate } from '../org/MemberGate.tsx';
import { EvaluationPage } from './EvaluationPage.tsx';
import { readEvaluationPath } from './readings.ts';

/** Both readings of the evaluation path; anonymous evaluation never asks for a sign-in. */
export function EvaluationRoute() {
  const params = useParams();
  const reading = readEvaluationPath(params);
  if (reading.kind === 'invalid') return <NotFoundPage />;
  if (reading.kind === 'anonymous') return <AnonymousEvaluationPage />;
  return (
    <MemberLayoutGate>
      <EvaluationPage />
    </MemberLayoutGate>
  );
}
