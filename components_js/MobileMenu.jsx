// The phone menu: a full-screen modal <dialog>. The native dialog keeps focus inside,
// closes on Escape and hands focus back to the trigger; its sections open and close in
// the browser, with no server round trip. Following any link inside closes it.
import React, { useEffect, useId, useRef, useState } from "react";
import { useLocation } from "react-router";

// Lucide's "menu" glyph, inline so the trigger needs no icon module.
const MenuIcon = () => (
  <svg width="28" height="28" viewBox="0 0 24 24" fill="none" stroke="currentColor"
    strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <line x1="4" x2="20" y1="12" y2="12" /><line x1="4" x2="20" y1="6" y2="6" />
    <line x1="4" x2="20" y1="18" y2="18" />
  </svg>
);

export function MobileMenu({ children }) {
  const dialogRef = useRef(null);
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const { pathname } = useLocation();

  useEffect(() => {
    dialogRef.current?.close();
  }, [pathname]);

  const show = () => {
    dialogRef.current?.showModal();
    setOpen(true);
  };
  const onClick = (event) => {
    if (event.target.closest("a, [data-menu-close]")) dialogRef.current?.close();
  };

  return (
    <>
      <button type="button" className="hamburger" aria-label="Open menu"
        aria-haspopup="dialog" aria-expanded={open ? "true" : "false"} onClick={show}>
        <MenuIcon />
      </button>
      <dialog ref={dialogRef} className="mobile-menu" aria-labelledby={titleId}
        onClick={onClick} onClose={() => setOpen(false)}>
        <h2 id={titleId} className="sr-only">Menu</h2>
        {children}
      </dialog>
    </>
  );
}

// One collapsible group of links inside the phone menu.
export function MobileSection({ label, children }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className="mobile-section" data-state={open ? "open" : "closed"}>
      <h3 className="mobile-section-heading">
        <button type="button" className="mobile-section-trigger" aria-expanded={open ? "true" : "false"}
          aria-controls={panelId} onClick={() => setOpen((was) => !was)}>
          {label}
          <svg className="mobile-section-chevron" width="20" height="20" viewBox="0 0 24 24"
            fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            <path d="m6 9 6 6 6-6" />
          </svg>
        </button>
      </h3>
      <div id={panelId} hidden={!open}>{children}</div>
    </div>
  );
}
