"""The careers pages: the openings (/careers, /careers/<slug>) with the application
form, and the applicant's withdraw page."""
