"""The booking screens' pages, each showing the state module of the same name."""
