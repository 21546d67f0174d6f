// Browser-side behaviour of the site frame that needs no server round trip.
import React, { useEffect, useRef, useState } from "react";
import { useLocation, useNavigation } from "react-router";

const SCROLL_THRESHOLD_PX = 100;
const LOADING_DELAY_MS = 150;

// Every change of path starts at the top-left of the new page. The first load does not
// scroll: a reader who scrolled while the page was starting, or who followed a link to
// an #anchor, stays where they are.
export function ScrollToTop() {
  const { pathname } = useLocation();
  const shownPath = useRef(pathname);
  // Marks the moment React owns the page, so tests can tell it from the prerendered HTML.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

// The header is translucent over the top of the page and solid once scrolled.
export function HeaderShell({ children, className, ...props }) {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > SCROLL_THRESHOLD_PX);
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, []);
  return (
    <header className={className} data-scrolled={scrolled ? "true" : "false"} {...props}>
      {children}
    </header>
  );
}

// Shows its children (the loading view) while the next route's code is loading,
// after a short delay so that fast navigations do not flash.
export function NavigationLoading({ children }) {
  const navigation = useNavigation();
  const [visible, setVisible] = useState(false);
  const loading = navigation.state === "loading";
  useEffect(() => {
    if (!loading) {
      setVisible(false);
      return undefined;
    }
    const timer = setTimeout(() => setVisible(true), LOADING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [loading]);
  return visible ? children : null;
}

const SESSION_KEY = "userSession";
// The login cookie itself is HttpOnly; this companion (value "1") says that it exists.
const SESSION_HINT_COOKIE = "userSessionActive";

// Asks the server about the sign-in state on every path change, but only when this
// browser holds a session: a visitor who never logged in costs the server nothing and
// the page no re-render.
export function SessionWatch({ onCheck }) {
  const { pathname } = useLocation();
  useEffect(() => {
    const hasCookie = document.cookie
      .split(";")
      .some((c) => c.trim().startsWith(`${SESSION_HINT_COOKIE}=`));
    let hasEntry = false;
    try {
      hasEntry = window.sessionStorage.getItem(SESSION_KEY) !== null;
    } catch {
      // Storage can be blocked; the cookie alone then decides.
    }
    if (!hasCookie && !hasEntry) return undefined;
    // After the events Reflex queues for the route change itself: those carry this tab's
    // stored header entry, which would otherwise overwrite the one the check extends.
    const timer = setTimeout(() => onCheck?.(), 0);
    return () => clearTimeout(timer);
  }, [pathname]);
  return null;
}

// A form holding more than one websocket message may carry would be dropped by the server
// unread, and the visitor would see nothing happen. Say so instead of sending it. Runs in
// the capture phase at the document, before React's own submit handling sees the event.
export function OversizeGuard({ limitBytes, message }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const check = (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement)) return;
      const values = Object.fromEntries(new FormData(form));
      const size = new Blob([JSON.stringify(values)]).size;
      if (size <= limitBytes) {
        setShown(false);
        return;
      }
      event.preventDefault();
      event.stopPropagation();
      setShown(true);
    };
    document.addEventListener("submit", check, true);
    return () => document.removeEventListener("submit", check, true);
  }, [limitBytes]);
  return shown ? <p role="alert" className="connection-notice">{message}</p> : null;
}

// The server could not act on what this tab sent (its state store or database is down):
// the server names no form, so the text comes from the form submitted last
// (`data-failure`), or is the general one. Cleared by the next submit or page.
// `eventName` is the window event the server's script dispatches (rcxsite/state/failures.py).
export function ActionFailureNotice({ fallback, eventName }) {
  const [message, setMessage] = useState("");
  const lastForm = useRef(null);
  const { pathname } = useLocation();
  useEffect(() => setMessage(""), [pathname]);
  useEffect(() => {
    const submitted = (event) => {
      lastForm.current = event.target instanceof HTMLFormElement ? event.target : null;
      setMessage("");
    };
    const failed = () => {
      const form = lastForm.current;
      setMessage((form?.isConnected && form.dataset.failure) || fallback);
    };
    document.addEventListener("submit", submitted, true);
    window.addEventListener(eventName, failed);
    return () => {
      document.removeEventListener("submit", submitted, true);
      window.removeEventListener(eventName, failed);
    };
  }, [fallback, eventName]);
  return message ? <p role="alert" className="connection-notice">{message}</p> : null;
}
