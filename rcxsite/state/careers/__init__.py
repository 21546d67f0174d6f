"""The careers screens' states: the openings' filters, the application form and the
withdraw page."""
