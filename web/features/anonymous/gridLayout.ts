/**
 * The anonymous boards grid's layout (SPEC §9, docs/decisions/0351-anonymous-grid-layout.md): the
 * specified column count wherever each code keeps a scannable size, fewer on a narrow screen; and codes as
 * large as the screen allows, so the page fills a screen left open on site.
 */
import { anonymousGridColumns } from '../../../common/constants.ts';

export const GRID_GAP = 8;
export const CELL_PADDING = 8;
/** The narrowest cell, so a code stays scannable (about 2 px per module for a typical address). */
export const MIN_CELL = 96;
export const MIN_QR = 72;
export const MAX_QR = 640;

/** The board name's type above each code, by the width of its cell. */
export function titleSize(cellWidth: number): { fontSize: number; lineHeight: number } {
  if (cellWidth >= 320) return { fontSize: 24, lineHeight: 31 };
  if (cellWidth >= 200) return { fontSize: 20, lineHeight: 26 };
  return { fontSize: 15, lineHeight: 20 };
}

export interface GridLayout {
  /** SPEC §9's column count for this many boards. */
  columns: number;
  /** The columns shown: SPEC's, or fewer when the width cannot hold that many scannable codes. */
  shownColumns: number;
  qrSize: number;
  title: { fontSize: number; lineHeight: number };
}

/**
 * `width` is the grid's width and `height` the height left for it on the screen, in CSS pixels; 0 while
 * not yet measured.
 */
export function gridLayout(count: number, width: number, height: number): GridLayout {
  const columns = anonymousGridColumns(count);
  const shownColumns =
    width > 0
      ? Math.max(1, Math.min(columns, Math.floor((width + GRID_GAP) / (MIN_CELL + GRID_GAP))))
      : columns;
  if (width <= 0) return { columns, shownColumns, qrSize: 160, title: titleSize(0) };
  // Each cell: a 1 px border and padding around the name (one line), an 8 px gap, and the code.
  const frame = 2 * CELL_PADDING + 2;
  const cellWidth = (width - GRID_GAP * (shownColumns - 1)) / shownColumns;
  const byWidth = cellWidth - frame;
  const rows = Math.max(1, Math.ceil(count / shownColumns));
  const title = titleSize(cellWidth);
  const byHeight =
    height > 0
      ? (height - GRID_GAP * (rows - 1)) / rows - frame - title.lineHeight - GRID_GAP
      : Number.POSITIVE_INFINITY;
  const qrSize = Math.floor(Math.min(byWidth, Math.max(MIN_QR, Math.min(byHeight, MAX_QR))));
  return { columns, shownColumns, qrSize: Math.max(0, qrSize), title };
}
