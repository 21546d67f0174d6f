"""Reflex states: thin adapters between the pages and the accounts service."""
