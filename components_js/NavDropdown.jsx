// A header drop-down: opens on hover for mouse users, on click/Enter/Space for
// everyone else, closes on leave, Escape, outside click or when one of its links is used.
import React, { useEffect, useId, useRef, useState } from "react";
import { useLocation } from "react-router";

export function NavDropdown({ label, children, paths = [] }) {
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  // The trigger is highlighted while the current page is one of its entries.
  const active = paths.includes(pathname.replace(/\/+$/, "") || "/");
  const panelId = useId();
  const rootRef = useRef(null);
  const buttonRef = useRef(null);
  const pointerType = useRef("");

  useEffect(() => {
    if (!open) return undefined;
    const closeOnOutside = (event) => {
      if (rootRef.current && !rootRef.current.contains(event.target)) setOpen(false);
    };
    document.addEventListener("pointerdown", closeOnOutside);
    return () => document.removeEventListener("pointerdown", closeOnOutside);
  }, [open]);

  const onKeyDown = (event) => {
    if (event.key === "Escape" && open) {
      event.stopPropagation();
      setOpen(false);
      buttonRef.current?.focus();
    }
  };
  // A mouse click on a hover-opened menu must not close it again; touch and keyboard toggle.
  const onClick = () => setOpen((wasOpen) => (pointerType.current === "mouse" ? true : !wasOpen));
  const onPanelClick = (event) => {
    if (event.target.closest("a")) setOpen(false);
  };
  const onBlur = (event) => {
    if (!rootRef.current?.contains(event.relatedTarget)) setOpen(false);
  };

  return (
    <div
      ref={rootRef}
      className="nav-dropdown"
      data-open={open ? "true" : "false"}
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onKeyDown={onKeyDown}
      onBlur={onBlur}
    >
      <button
        ref={buttonRef}
        type="button"
        className="nav-link nav-dropdown-trigger"
        data-active={active ? "true" : "false"}
        aria-expanded={open}
        aria-controls={panelId}
        onPointerDown={(event) => { pointerType.current = event.pointerType; }}
        onKeyDown={() => { pointerType.current = "keyboard"; }}
        onClick={onClick}
      >
        {label}
        <svg aria-hidden="true" width="14" height="14" viewBox="0 0 24 24" fill="none"
             stroke="currentColor" strokeWidth="2" className="nav-dropdown-chevron">
          <path d="m6 9 6 6 6-6" />
        </svg>
      </button>
      <div id={panelId} className="nav-dropdown-panel" hidden={!open} onClick={onPanelClick}>
        <div className="nav-dropdown-grid">{children}</div>
      </div>
    </div>
  );
}
