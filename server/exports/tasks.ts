/**
 * The Excel exports as tasks (decision 0750): plain data (the call, who asks, its input, the time and the
 * app's address) that either this process or an export worker (inWorker.ts) turns into the file, with the
 * same code. The caller's permissions are checked before a task is made (http/register.ts); what the export
 * reads is bounded by the caller inside each export, as it always was.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { api } from '../../common/api/index.ts';
import type { UserActor } from '../context.ts';
import type { Db } from '../db/index.ts';
import type { FileAnswer } from '../http/handlers.ts';
import { exportActions } from '../modules/actions/excel.ts';
import { viewerOf } from '../modules/actions/service.ts';
import { exportEvaluations } from '../modules/evaluations/excel.ts';
import { exportFeedback } from '../modules/feedback/excel.ts';
import { userCaller } from '../modules/shared/caller.ts';

export type ExportCall = 'getExcel' | 'getFeedbackExcel' | 'getActionsExcel';

interface TaskOf<C extends ExportCall> {
  call: C;
  actor: UserActor;
  input: z.output<(typeof api)[C]['request']>;
  now: number;
  /** Links in the file (photos) start with it. */
  appUrl: string;
}

export type ExportTask = { [C in ExportCall]: TaskOf<C> }[ExportCall];

/** Makes a task's file from this process's connection. */
export function exportHere(db: Db, task: ExportTask, log: FastifyBaseLogger): Promise<FileAnswer> {
  switch (task.call) {
    case 'getExcel':
      return exportEvaluations(db, userCaller(task.actor), task.input, task.now, log, task.appUrl);
    case 'getFeedbackExcel':
      return exportFeedback(db, userCaller(task.actor), task.input, task.now, log);
    case 'getActionsExcel':
      return exportActions(db, viewerOf(task.actor), task.input, task.now, log);
  }
}

/** How a process makes exports: here (an in-memory database, tests) or in a worker of its own. */
export type Exporter = (task: ExportTask, log: FastifyBaseLogger) => Promise<FileAnswer>;

export const exportInProcess =
  (db: Db): Exporter =>
  (task, log) =>
    exportHere(db, task, log);
