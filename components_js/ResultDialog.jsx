// The result of a form: a native modal <dialog>, which keeps focus inside and returns it.
import React, { useEffect, useId, useRef } from "react";

// A modal message with one OK button that takes focus; Escape counts as OK.
export function ResultDialog({ open, title, message, onOk, className }) {
  const dialogRef = useRef(null);
  const titleId = useId();
  const messageId = useId();
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  const onCancel = (event) => {
    event.preventDefault();
    onOk?.();
  };
  return (
    // A closed dialog has no title or message: it names nothing that is not there.
    <dialog ref={dialogRef} role="alertdialog" aria-modal="true"
      aria-labelledby={open ? titleId : undefined} aria-describedby={open ? messageId : undefined}
      className={className} onCancel={onCancel}>
      {open ? (
        <>
          <h2 id={titleId} className="dialog-title">{title}</h2>
          <p id={messageId} className="dialog-message">{message}</p>
          <div className="dialog-actions">
            <button type="button" className="button button-primary" autoFocus onClick={() => onOk?.()}>
              OK
            </button>
          </div>
        </>
      ) : null}
    </dialog>
  );
}
