/**
 * @module web/client/panel
 * What every panel receives: the route's argument and parameters, and the page's error box.
 */
export interface PanelContext {
  /** The path after the panel name (`#history/ID` → ID). */
  arg: string;
  params: URLSearchParams;
  showError(err: unknown): void;
  clearError(): void;
  /** False once the person has moved to another route (late answers are then dropped). */
  current(): boolean;
}

export type Panel = (root: HTMLElement, ctx: PanelContext) => Promise<void>;

/** Sets the hash without re-rendering the panel (so a shared URL reproduces what is on screen). */
export function replaceHash(hash: string): void {
  if (location.hash !== hash) history.replaceState(null, "", hash);
}
