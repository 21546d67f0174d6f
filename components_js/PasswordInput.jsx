// A password input with a show/hide button. Showing the text is a purely visual choice,
// so it is answered in the browser without a server round trip.
import React, { useState } from "react";

// Lucide's "eye" and "eye-off" glyphs.
const Eye = ({ off }) => (
  <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor"
    strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    {off ? (
      <>
        <path d="M10.733 5.076a10.744 10.744 0 0 1 11.205 6.575 1 1 0 0 1 0 .696 10.747 10.747 0 0 1-1.444 2.49" />
        <path d="M14.084 14.158a3 3 0 0 1-4.242-4.242" />
        <path d="M17.479 17.499a10.75 10.75 0 0 1-15.417-5.151 1 1 0 0 1 0-.696 10.75 10.75 0 0 1 4.446-5.143" />
        <path d="m2 2 20 20" />
      </>
    ) : (
      <>
        <path d="M2.062 12.348a1 1 0 0 1 0-.696 10.75 10.75 0 0 1 19.876 0 1 1 0 0 1 0 .696 10.75 10.75 0 0 1-19.876 0" />
        <circle cx="12" cy="12" r="3" />
      </>
    )}
  </svg>
);

export function PasswordInput({ label, inputId, name, autoComplete, invalid, describedBy, maxLength }) {
  const [shown, setShown] = useState(false);
  const what = label.toLowerCase();
  return (
    <div className="password-wrap">
      <input id={inputId} name={name} type={shown ? "text" : "password"}
        autoComplete={autoComplete} className="field-input" aria-invalid={invalid}
        aria-describedby={describedBy} maxLength={maxLength} />
      <button type="button" className="password-toggle" onClick={() => setShown((s) => !s)}
        aria-label={shown ? `Hide ${what}` : `Show ${what}`} aria-pressed={shown ? "true" : "false"}>
        <Eye off={shown} />
      </button>
    </div>
  );
}
