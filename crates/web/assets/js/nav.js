// Moving between pages without reloading.

/** Go to `path` inside the app (the router listens). */
export function navigate(path) {
  if (path !== location.pathname + location.search) history.pushState(null, '', path);
  window.dispatchEvent(new Event('plateau:navigate'));
}
