import { useSyncExternalStore } from 'react';

/**
 * A tiny value kept in Web Storage and shared by every component (and, for localStorage, every tab):
 * the logged_in flag, the admin edit mode.
 */
export function storedValue<T extends string>(storage: () => Storage, key: string, fallback: T) {
  const listeners = new Set<() => void>();
  const read = (): T => {
    try {
      return (storage().getItem(key) as T | null) ?? fallback;
    } catch {
      return fallback;
    }
  };
  const emit = () => listeners.forEach((listener) => listener());
  if (typeof window !== 'undefined') {
    window.addEventListener('storage', (event) => {
      if (event.key === key) emit();
    });
  }
  return {
    get: read,
    set(value: T) {
      try {
        storage().setItem(key, value);
      } catch {
        // Storage full or denied: the value still holds for this page.
      }
      emit();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    use(): T {
      return useSyncExternalStore(this.subscribe, read, () => fallback);
    },
  };
}
