/**
 * An evaluation's PDF report, drawn with pdfkit (docs/decisions/0712): the organisation, board, card, who and
 * when (in the organisation's zone, named), the overall result, each item with its answer, note and photo
 * thumbnails, the actions raised, the feedback and the sign-off; then each photo full size on the pages
 * that follow. Every text is written in embedded, subset Noto fonts (accents, CJK). Each photo is embedded
 * once and drawn twice (thumbnail and full page), so the file holds one copy of it.
 */
import PDFDocument from 'pdfkit';
import type { PaperSize } from '../../../common/signOff.ts';
import { fontRuns, fonts, type FontName } from './fonts.ts';

export interface ReportPhoto {
  /** JPEG or PNG bytes pdfkit can embed, or null when the file could not be read. */
  data: Buffer | null;
  width: number;
  height: number;
}

export interface ReportItem {
  position: number;
  kind: 'instruction' | 'pass_fail' | 'text' | 'numeric' | 'none';
  label: string;
  answer: string | null;
  outcome: 'pass' | 'fail' | 'na' | null;
  note: string | null;
  photos: ReportPhoto[];
}

export interface ReportAction {
  title: string;
  description: string;
  status: string;
  priority: string;
  dueDate: string;
  assignee: string;
  raisedBy: string;
  item: string | null;
  closeNote: string | null;
}

export interface ReportFeedback {
  author: string;
  when: string;
  content: string;
}

export interface ReportData {
  evaluationId: number;
  organisation: string;
  board: string;
  card: string;
  evaluator: string;
  /** The completion time written in the organisation's zone, the zone named. */
  completed: string;
  pass: boolean;
  items: ReportItem[];
  /** Null: the reader may not see actions (a Viewer), so the section is left out. */
  actions: ReportAction[] | null;
  /** Whether only the reader's own actions are listed (an Evaluator's report). */
  ownActionsOnly: boolean;
  feedback: ReportFeedback[];
  signOff: { name: string | null; image: ReportPhoto | null } | null;
  generated: string;
}

const PAPER: Record<PaperSize, string> = { a4: 'A4', letter: 'LETTER' };
const MARGIN = 50;
const GREY = '#555555';
const PASS = '#1b7a2f';
const FAIL = '#b3261e';
const THUMB = 84;

type Doc = PDFKit.PDFDocument;
type OpenedImage = { width: number; height: number };

/** Writes text in the fonts that have its characters (one paragraph; options as pdfkit's text()). */
function write(
  doc: Doc,
  text: string,
  options: PDFKit.Mixins.TextOptions & {
    bold?: boolean;
    size?: number;
    color?: string;
    x?: number;
    y?: number;
  } = {},
) {
  const { bold, size = 10, color = '#000000', x, y, ...rest } = options;
  const runs = fontRuns(text, bold);
  doc.fillColor(color).fontSize(size);
  runs.forEach((run, index) => {
    doc.font(run.font);
    const runOptions = { ...rest, continued: index < runs.length - 1 };
    // pdfkit reads (text, options) or (text, x, y, options): undefined x and y would drop the options.
    if (index === 0 && (x !== undefined || y !== undefined)) doc.text(run.text, x, y, runOptions);
    else doc.text(run.text, runOptions);
  });
}

/**
 * One line placed run by run, never wrapped (the page footer): pdfkit's line wrapper is not used, so
 * writing below the bottom margin cannot start another page. Cut where it reaches `maxWidth`.
 */
function writeLine(doc: Doc, text: string, at: { x: number; y: number; size: number; maxWidth: number }) {
  let x = at.x;
  doc.fillColor(GREY).fontSize(at.size);
  for (const run of fontRuns(text)) {
    doc.font(run.font);
    let part = run.text;
    while (part && x + doc.widthOfString(part) > at.x + at.maxWidth) part = part.slice(0, -1);
    if (!part) break;
    doc.text(part, x, at.y, { lineBreak: false });
    x += doc.widthOfString(part);
    if (part !== run.text) break;
  }
}

/** Room for `height` points below the cursor, or a new page. */
function ensureRoom(doc: Doc, height: number) {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

function heading(doc: Doc, text: string) {
  ensureRoom(doc, 60);
  doc.moveDown(0.8);
  write(doc, text, { bold: true, size: 14 });
  const y = doc.y + 2;
  doc
    .moveTo(MARGIN, y)
    .lineTo(doc.page.width - MARGIN, y)
    .lineWidth(0.5)
    .strokeColor('#999999')
    .stroke();
  doc.y = y + 6;
}

function field(doc: Doc, label: string, value: string, color?: string) {
  ensureRoom(doc, 16);
  const y = doc.y;
  write(doc, label, { bold: true, size: 10, color: GREY, width: 110 });
  const after = doc.y;
  doc.y = y;
  write(doc, value, { size: 10, x: MARGIN + 115, width: doc.page.width - 2 * MARGIN - 115, color });
  doc.x = MARGIN;
  doc.y = Math.max(doc.y, after);
}

/** Lets the stream hand what is written so far to the client before the next part is drawn. */
const yieldToStream = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The report as a stream: the answer starts while later pages are still being drawn. An error while
 * drawing ends the stream with it.
 */
export function renderReport(data: ReportData, paper: PaperSize): PDFKit.PDFDocument {
  const doc = new PDFDocument({
    size: PAPER[paper],
    margin: MARGIN,
    autoFirstPage: false,
    info: {
      Title: `Evaluation report: ${data.card} on ${data.board}`,
      Author: data.organisation,
      Creator: 'Checkboard',
    },
  });
  const all = fonts();
  for (const name of Object.keys(all) as FontName[]) doc.registerFont(name, all[name].data);

  let page = 0;
  doc.on('pageAdded', () => {
    page += 1;
    const footer = `${data.organisation} · ${data.card} · evaluation ${data.evaluationId} · page ${page}`;
    writeLine(doc, footer, {
      x: MARGIN,
      y: doc.page.height - 32,
      size: 8,
      maxWidth: doc.page.width - 2 * MARGIN,
    });
    doc.x = MARGIN;
    doc.y = MARGIN;
  });

  void draw(doc, data).then(
    () => doc.end(),
    (error: unknown) => doc.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return doc;
}

async function draw(doc: Doc, data: ReportData) {
  doc.addPage();
  const width = doc.page.width - 2 * MARGIN;
  write(doc, data.organisation, { size: 11, color: GREY });
  write(doc, `Evaluation report: ${data.card}`, { bold: true, size: 20 });
  doc.moveDown(0.5);
  field(doc, 'Organisation', data.organisation);
  field(doc, 'Board', data.board);
  field(doc, 'Card', data.card);
  field(doc, 'Evaluator', data.evaluator);
  field(doc, 'Completed', data.completed);
  field(doc, 'Overall result', data.pass ? 'PASS' : 'FAIL', data.pass ? PASS : FAIL);

  // Photos are opened once: drawn as thumbnails here and full size on the pages that follow.
  const opened = new Map<ReportPhoto, OpenedImage>();
  const open = (photo: ReportPhoto) => {
    if (!photo.data) return null;
    let image = opened.get(photo);
    if (!image) {
      image = (doc as unknown as { openImage(data: Buffer): OpenedImage }).openImage(photo.data);
      opened.set(photo, image);
    }
    return image;
  };
  const fullPages: { photo: ReportPhoto; number: number; item: string }[] = [];

  heading(doc, 'Items');
  let number = 0;
  for (const item of data.items) {
    ensureRoom(doc, 40);
    doc.moveDown(0.4);
    write(doc, `${item.position + 1}. ${item.label}`, {
      bold: item.kind !== 'instruction',
      size: 11,
      width,
      color: item.kind === 'instruction' ? GREY : '#000000',
    });
    if (item.kind !== 'instruction') {
      const color = item.outcome === 'pass' ? PASS : item.outcome === 'fail' ? FAIL : undefined;
      field(doc, 'Answer', item.answer ?? 'Not answered', color);
    }
    if (item.note) field(doc, 'Note', item.note);
    if (item.photos.length) {
      ensureRoom(doc, THUMB + 24);
      const top = doc.y + 4;
      // The row is as high as its tallest thumbnail (each fitted into THUMB × THUMB); captions go under it.
      const drawn = item.photos.map((photo) => {
        const scale = Math.min(THUMB / photo.width, THUMB / photo.height);
        return open(photo) ? photo.height * scale : THUMB;
      });
      const rowHeight = Math.max(...drawn);
      item.photos.forEach((photo, index) => {
        number += 1;
        const x = MARGIN + index * (THUMB + 10);
        const image = open(photo);
        if (image) doc.image(image as never, x, top, { fit: [THUMB, THUMB] });
        else doc.rect(x, top, THUMB, THUMB).strokeColor('#999999').stroke();
        write(doc, image ? `Photo ${number}` : `Photo ${number} (unavailable)`, {
          x,
          y: top + rowHeight + 2,
          size: 8,
          color: GREY,
          width: THUMB,
          lineBreak: false,
        });
        if (image) fullPages.push({ photo, number, item: item.label });
      });
      doc.x = MARGIN;
      doc.y = top + rowHeight + 16;
    }
    await yieldToStream();
  }

  if (data.actions) {
    heading(doc, 'Actions raised');
    if (!data.actions.length) {
      const none = data.ownActionsOnly
        ? 'No action assigned to you or raised by you came from this evaluation.'
        : 'No actions were raised from this evaluation.';
      write(doc, none, { color: GREY });
    } else if (data.ownActionsOnly) {
      write(doc, 'The actions assigned to you or raised by you.', { size: 9, color: GREY });
    }
    for (const action of data.actions) {
      ensureRoom(doc, 50);
      doc.moveDown(0.3);
      write(doc, action.title, { bold: true, size: 11, width });
      const facts = [
        action.status,
        `priority ${action.priority}`,
        `due ${action.dueDate}`,
        `assigned to ${action.assignee}`,
        `raised by ${action.raisedBy}`,
      ].join(' · ');
      write(doc, facts, { size: 9, color: GREY, width });
      if (action.item) write(doc, `Item: ${action.item}`, { size: 9, color: GREY, width });
      if (action.description) write(doc, action.description, { size: 10, width });
      if (action.closeNote) field(doc, 'Close-out', action.closeNote);
    }
  }

  heading(doc, 'Feedback');
  if (!data.feedback.length) write(doc, 'No feedback was given on this evaluation.', { color: GREY });
  for (const entry of data.feedback) {
    ensureRoom(doc, 36);
    doc.moveDown(0.3);
    write(doc, `${entry.author} · ${entry.when}`, { size: 9, color: GREY, width });
    write(doc, entry.content, { size: 10, width });
  }

  if (data.signOff) {
    heading(doc, 'Sign-off');
    const image = data.signOff.image ? open(data.signOff.image) : null;
    if (image) {
      ensureRoom(doc, 110);
      const top = doc.y + 4;
      doc.rect(MARGIN, top, 240, 96).lineWidth(0.5).strokeColor('#999999').stroke();
      doc.image(image as never, MARGIN + 4, top + 4, { fit: [232, 88], align: 'center', valign: 'center' });
      doc.x = MARGIN;
      doc.y = top + 104;
    }
    field(doc, 'Signed by', data.signOff.name ?? '(no name typed)');
    field(doc, 'Signed', data.completed);
  }

  ensureRoom(doc, 30);
  doc.moveDown(1);
  write(doc, `Report made ${data.generated}.`, { size: 8, color: GREY, width });

  for (const { photo, number: n, item } of fullPages) {
    await yieldToStream();
    doc.addPage();
    write(doc, `Photo ${n} · ${item}`, { bold: true, size: 11, width });
    const top = doc.y + 6;
    const room: [number, number] = [width, doc.page.height - top - MARGIN - 20];
    doc.image(open(photo)! as never, MARGIN, top, { fit: room, align: 'center' });
  }
}
