/**
 * SPEC §2 gives the evaluation path two readings of the same shape (docs/decisions/0004-evaluation-paths.md):
 *   /q/{org}/boards/{board}/{boardID}/eval/{card}/{cardID}/{evalID}[/{anonKey}]   (the primary reading)
 *   /q/{org}/boards/{boardID}/{cardID}/eval/{a}/{b}/{c}[/{extra}]                 (the other reading)
 * The primary reading wins whenever its id segments are ids; its optional last segment is an anonymous key.
 */
export type EvaluationReading =
  | {
      kind: 'member';
      board: string | null;
      boardID: number;
      card: string | null;
      cardID: number;
      evalID: number | null;
    }
  | {
      kind: 'anonymous';
      board: string;
      boardID: number;
      card: string;
      cardID: number;
      evalID: number;
      anonKey: string;
    }
  | { kind: 'invalid' };

const asId = (value: string | undefined) => (value && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : null);

export function readEvaluationPath(segments: {
  s1?: string;
  s2?: string;
  s3?: string;
  s4?: string;
  s5?: string;
  s6?: string;
}): EvaluationReading {
  const { s1, s2, s3, s4, s5, s6 } = segments;
  const boardID = asId(s2);
  const cardID = asId(s4);
  const evalID = asId(s5);
  if (s1 && boardID && s3 && cardID && evalID) {
    if (s6) return { kind: 'anonymous', board: s1, boardID, card: s3, cardID, evalID, anonKey: s6 };
    return { kind: 'member', board: s1, boardID, card: s3, cardID, evalID };
  }
  const otherBoardID = asId(s1);
  const otherCardID = asId(s2);
  if (otherBoardID && otherCardID) {
    return {
      kind: 'member',
      board: null,
      boardID: otherBoardID,
      card: null,
      cardID: otherCardID,
      evalID: asId(s5),
    };
  }
  return { kind: 'invalid' };
}
