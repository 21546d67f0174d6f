"""Page wrappers: the site layout (header, content, footer) and the bare layout."""
