// Browser-side behaviour of the site frame that needs no server round trip.
import React, { useEffect, useState } from "react";
import { useLocation, useNavigation } from "react-router";

const SCROLL_THRESHOLD_PX = 100;
const LOADING_DELAY_MS = 150;

// Every path change starts at the top-left of the new page.
export function ScrollToTop() {
  const { pathname } = useLocation();
  // Marks the moment React owns the page, so tests can tell it from the prerendered HTML.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  useEffect(() => {
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
