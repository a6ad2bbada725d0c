// Generated from wasm/js/api-doc.json by wasm/js/api-types.mjs: edit those, not this file.
import type { JudgeResults } from './tp.js';
export type { JudgeResults } from './tp.js';

/** Judges a solution's source against an exercise (a bundled id, or a path to an exercise folder), as `tensorpad judge --json` does. @example import { judge } from 'tensorpad/judge'; const r = await judge('lora-params', 'export const loraParams = (o, i, r) => r * (o + i);'); */
export declare function judge(exercise: string, source: string, opts?: { seed?: number; lang?: 'en' | 'zh'; filename?: string }): Promise<JudgeResults>;
/** The bundled exercises, with their titles and difficulty. @example import { listExercises } from 'tensorpad/judge'; listExercises().map((e) => e.id); */
export declare function listExercises(): { id: string; title: { en: string; zh: string }; difficulty: string }[];
/** The seed of the hidden cases when none is given. @example import { DEFAULT_SEED } from 'tensorpad/judge'; */
export declare const DEFAULT_SEED: number;
/** Thrown for an exercise that cannot be loaded (the message names its file and field). @example import { ExerciseError } from 'tensorpad/judge'; */
export declare class ExerciseError extends Error {}
