"""Site-wide sections: header and footer."""
