import { useEffect, useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False while the server renders and during hydration, true afterwards: also on the first render
 * of a screen reached by a client-side navigation (a useEffect flag would be false there for one
 * render, so a control enabled only with JavaScript would flicker and could be clicked too early).
 */
export function useHydrated() {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

/**
 * Called once by the root document: sets html[data-hydrated] when React has hydrated, the marker
 * browser tests wait for (tests/helpers/browser.ts gotoHydrated), never for time.
 */
export function useMarkHydrated() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
}
