"""RCX public website: Reflex pages, the accounts service and the /api/v1 REST API."""
