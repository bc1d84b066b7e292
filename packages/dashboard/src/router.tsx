/** A tiny history router: the current path and query, navigate(), and <Link> for in-app anchors. */
import { type AnchorHTMLAttributes, type MouseEvent, useEffect, useState } from 'react';

const listeners = new Set<() => void>();

/** Goes to `to` (path + query) without a reload; `replace` keeps the history length. */
export function navigate(to: string, replace = false): void {
  if (replace) {
    window.history.replaceState(null, '', to);
  } else {
    window.history.pushState(null, '', to);
  }
  for (const listener of listeners) {
    listener();
  }
  window.scrollTo(0, 0);
}

/** The current location, re-rendered on navigation and on back/forward. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const update = () => setTick((n) => n + 1);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return { path: window.location.pathname, query: new URLSearchParams(window.location.search) };
}

/** An anchor that navigates inside the app (modifier clicks still open a new tab). */
export function Link({ href, onClick: outer, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    outer?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) {
      return;
    }
    event.preventDefault();
    navigate(href);
  };
  return <a href={href} {...rest} onClick={onClick} />;
}
