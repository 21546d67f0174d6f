"""The staff back office's Reflex states: thin adapters over rcxsite.staff (the inbox and customer
support among it). Every public handler is a `staff_event` (rcxsite/state/staff/
access.py), which resolves the member from their session and checks the permission on
the server before anything else runs."""
