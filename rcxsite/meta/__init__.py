"""SEO tags of each page: title, description, canonical URL, Open Graph and Twitter."""
