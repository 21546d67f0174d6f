// The gallery: a grid of thumbnails, each a button that opens the picture in a modal
// <dialog>. The native dialog traps focus, closes on Escape and hands focus back to the
// thumbnail; the arrow keys and the Previous/Next buttons move through the pictures.
import React, { useRef, useState } from "react";

export function Gallery({ items = [] }) {
  const dialogRef = useRef(null);
  const [index, setIndex] = useState(0);
  const count = items.length;
  const current = items[index] || {};

  const open = (i) => {
    setIndex(i);
    dialogRef.current?.showModal();
  };
  const step = (delta) => setIndex((i) => (i + delta + count) % count);
  const onKeyDown = (event) => {
    if (event.key === "ArrowRight") step(1);
    else if (event.key === "ArrowLeft") step(-1);
  };
  // A click on the backdrop lands on the dialog element itself.
  const onClick = (event) => {
    if (event.target === dialogRef.current) dialogRef.current.close();
  };

  return (
    <>
      <ul className="gallery">
        {items.map((item, i) => (
          <li key={item.src} className="gallery-item">
            <figure>
              <button type="button" className="gallery-open" onClick={() => open(i)}
                aria-label={`Open picture: ${item.title}`}>
                <img src={item.src} alt={item.alt} width={item.width} height={item.height}
                  loading="lazy" decoding="async" />
              </button>
              <figcaption><strong>{item.title}</strong> – {item.caption}</figcaption>
            </figure>
          </li>
        ))}
      </ul>
      <dialog ref={dialogRef} className="lightbox" aria-labelledby="lightbox-title"
        onKeyDown={onKeyDown} onClick={onClick}>
        <figure className="lightbox-figure">
          <img src={current.src} alt={current.alt} width={current.width}
            height={current.height} />
          <figcaption>
            <strong id="lightbox-title">{current.title}</strong> – {current.caption}
            <span className="lightbox-count"> ({index + 1} of {count})</span>
          </figcaption>
        </figure>
        <div className="lightbox-actions">
          <button type="button" className="button button-outline" onClick={() => step(-1)}>
            Previous
          </button>
          <button type="button" className="button button-outline" onClick={() => step(1)}>
            Next
          </button>
          <button type="button" className="button button-primary" autoFocus
            onClick={() => dialogRef.current?.close()}>
            Close
          </button>
        </div>
      </dialog>
    </>
  );
}
