// Secrets the server shows once (an invitation link, an authenticator key and its QR
// code, recovery codes). They arrive in a script event and live in this page's memory
// only: never in the tab's state, which the server keeps on disk or in Redis.
import React, { useEffect, useState } from "react";

const EVENT = "rcx-one-time";

function held(slot) {
  return (window.rcxOneTime || {})[slot];
}

function useOneTime(slot) {
  const [value, setValue] = useState(() => held(slot));
  useEffect(() => {
    const onShow = (event) => {
      if (slot in event.detail) setValue(event.detail[slot]);
    };
    window.addEventListener(EVENT, onShow);
    setValue(held(slot));
    return () => {
      window.removeEventListener(EVENT, onShow);
      // Gone from the page, gone from memory: a later page of this tab cannot show it.
      if (window.rcxOneTime) delete window.rcxOneTime[slot];
    };
  }, [slot]);
  return value;
}

// kind: "text" (one <code>), "lines" (a list of <code>), "svg" (markup the server made),
// "link" (an <a> to the value, named `label`: a link whose address is the secret).
export function OneTimeSecret({ slot, kind = "text", label, id, className }) {
  const value = useOneTime(slot);
  if (value === undefined || value === null) return null;
  if (kind === "lines") {
    return (
      <ul id={id} className={className}>
        {value.map((line) => <li key={line}><code>{line}</code></li>)}
      </ul>
    );
  }
  if (kind === "link") {
    return <a id={id} className={className} href={value}>{label}</a>;
  }
  if (kind === "svg") {
    return (
      <div id={id} className={className} role="img" aria-label={label}
        dangerouslySetInnerHTML={{ __html: value }} />
    );
  }
  return <code id={id} className={className}>{value}</code>;
}

// Saves what a OneTimeSecret of the same slot shows as a text file, in the browser alone.
export function OneTimeDownload({ slot, filename, heading = "", className, children }) {
  const value = useOneTime(slot);
  const save = () => {
    const lines = Array.isArray(value) ? value : [value];
    const blob = new Blob([heading + lines.join("\n") + "\n"], { type: "text/plain" });
    const url = URL.createObjectURL(blob);
    const link = document.createElement("a");
    link.href = url;
    link.download = filename;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  };
  return (
    <button type="button" className={className} onClick={save} disabled={!value}>
      {children}
    </button>
  );
}
