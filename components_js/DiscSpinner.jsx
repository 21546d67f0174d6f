// react-spinners ships CommonJS as its Node entry: a namespace import works both in the
// browser bundle (ESM build) and in the server prerender (CommonJS), a named import does not.
import React from "react";
import * as spinners from "react-spinners";

const ClipLoader = spinners.ClipLoader ?? spinners.default?.ClipLoader;

export function DiscSpinner(props) {
  return <ClipLoader aria-hidden="true" {...props} />;
}
