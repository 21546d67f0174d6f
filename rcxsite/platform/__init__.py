"""The bottom of the house: settings, the database, logs, what counts as an outage, and
secrets sealed at rest. It knows nothing of any feature."""
