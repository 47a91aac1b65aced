/** The administrators' edit mode (SPEC §2 menu), kept for the browser tab. */
import { storedValue } from './store.ts';

const flag = storedValue<'on' | 'off'>(() => window.sessionStorage, 'checkboard-edit-mode', 'off');

export const useEditMode = () => flag.use() === 'on';
export const setEditMode = (on: boolean) => flag.set(on ? 'on' : 'off');
