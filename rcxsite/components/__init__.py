"""Small reusable pieces of the site's pages."""
